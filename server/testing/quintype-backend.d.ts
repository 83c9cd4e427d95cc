// The parts of @quintype/backend 2.7.0 (untyped JavaScript) that tests run as a real client.
// Responses are the server's JSON; high-level wrappers return Proxies that read through to it.
declare module "@quintype/backend" {
  type Json = Record<string, unknown>;
  type Wrapped = Json & { asJson(): Json };
  type StoryObject = Wrapped & {
    getRelatedStories(client: Client, params?: Json): Promise<StoryObject[]>;
    getStoryAttributes(client: Client): Promise<Json>;
  };

  export class Client {
    constructor(baseUrl: string, temporaryClient?: boolean);
    getStories(params?: Json): Promise<{ stories: Json[] }>;
    getStoryBySlug(slug: string, params?: Json): Promise<{ story?: Json }>;
    getStoryById(id: string): Promise<{ story?: Json }>;
    getStoryByExternalId(id: string): Promise<{ story?: Json }>;
    getRelatedStories(
      storyId: string,
      sectionId?: number | string | null,
      params?: Json,
    ): Promise<{ "related-stories": Json[] }>;
    getStoryAttributes(storyId: string): Promise<Json>;
    getSearch(
      params?: Json,
    ): Promise<{ results: { from: number; size: number; total: number; stories: Json[]; term: string } }>;
    getAdvancedSearch(params?: Json): Promise<Json>;
    getCollectionBySlug(slug: string, params?: Json): Promise<Json | null>;
    getInBulk(requests: { requests: Record<string, Json> }): Promise<{ results: Record<string, Json | null> }>;
    getConfig(): Promise<Wrapped>;
    /** GET /api/v1/amp/story?slug= with `Accept: application/json` (request's json: true). */
    getAmpStoryBySlug(slug: string): Promise<unknown>;
    request(path: string, opts?: Json): Promise<unknown>;
  }

  export class Story {
    static getStories(client: Client, storyGroup?: string, params?: Json): Promise<StoryObject[]>;
    static getStoryBySlug(client: Client, slug: string, params?: Json): Promise<StoryObject | null>;
    static getStoryById(client: Client, id: string): Promise<StoryObject | null>;
    static getStoryByExternalId(client: Client, id: string): Promise<StoryObject | null>;
    static getSearch(
      client: Client,
      params: Json,
    ): Promise<{ stories: StoryObject[]; total: number; from: number; size: number; term: string }>;
  }

  export class Author {
    static getAuthors(client: Client, params?: Json): Promise<Wrapped[]>;
    static getAuthor(client: Client, id: number | string): Promise<Wrapped | null>;
  }

  export class Collection {
    static getCollectionBySlug(
      client: Client,
      slug: string,
      params?: Json,
      options?: { depth?: number; defaultNestedLimit?: number; storyLimits?: Record<string, number> },
    ): Promise<Wrapped | null>;
  }
}
