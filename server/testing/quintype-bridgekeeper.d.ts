// The parts of @quintype/bridgekeeper-js 2.8.2 (untyped JavaScript) that tests run as a real client.
// Every call fetches a relative /api/... URL; answers are the server's JSON (updateWithOtp: the Response).
declare module "@quintype/bridgekeeper-js" {
  type Json = Record<string, unknown>;
  type SocialLogin = { login(): Promise<Json>; serverSideLoginPath: string };

  export function register(body: Json): Promise<Json>;
  export function login(body: Json): Promise<Json>;
  export function currentUser(): Promise<Json>;
  export function sendOtp(body: Json): Promise<Json & { status: number }>;
  export function updateWithOtp(otp: string, user: Json): Promise<Response>;
  export function updateUserProfile(body: Json): Promise<Json>;
  export function resetPassword(body: Json): Promise<Json>;
  export function sendVerificationLink(email: string, redirectUrl: string): Promise<Json>;
  export function withGoogleLogin(options: { clientId: string; scope?: string; redirectUrl?: string }): SocialLogin;
  export function withFacebookLogin(options: { appId: string; scope?: string; redirectUrl?: string }): SocialLogin;
}
