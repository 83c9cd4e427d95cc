// Under Vitest there is no React server build; "server-only" resolves here instead of throwing.
export {};
