// Types of _request.js (the project does not type-check JavaScript).
export declare function requestFor(
  endpoint: { method: "GET" | "POST"; path: string },
  input: Record<string, unknown>,
  base: string,
): { url: string; init: RequestInit & { method: "GET" | "POST" } };
export declare function decodeBase64Json(header: string): unknown;
