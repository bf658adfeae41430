// The slice of autocannon 9's API bench/server uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** Requests per second over all connections: a fixed offered load. */
      overallRate?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Array<RequestParams & { setupRequest?: (request: RequestParams) => RequestParams }>;
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      non2xx: number;
      '2xx': number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
