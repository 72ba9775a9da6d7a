// Packages the bench uses that ship no types (and whose @types packages the project does not install).

declare module "express" {
  const express: () => {
    use(handler: unknown): void;
    get(path: string, handler: (req: any, res: any) => unknown): void;
    listen(port: number, host: string, ready: () => void): { close(done: () => void): void };
  };
  export default express;
  export type Request = any;
  export type Response = any;
  export type NextFunction = any;
}

declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p97_5: number;
    p99: number;
    max: number;
    total: number;
    totalCount: number;
    sent: number;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram;
  }
  export interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }
  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Array<
      RawRequest & {
        setupRequest?: (req: RawRequest) => RawRequest;
        onResponse?: (status: number, body: string) => void;
      }
    >;
  }
  /** A thenable run; stop() ends it early and still resolves with what was measured. */
  const autocannon: (options: Options) => Promise<Result> & { stop(): void };
  export default autocannon;
}
