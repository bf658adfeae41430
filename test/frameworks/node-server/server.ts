// A merchant backend in plain Node ESM: the package imported by its name, types from its exports.
import { PaymentClient, ValidationError, createTokenHandler, type TokenParams } from 'pay-form/server';

const client = new PaymentClient({ baseUrl: 'https://pay.example', merchantId: 'm-1', secret: 's' });

const params: TokenParams = { site_login: 'alice', site_id: 1, request_id: 'order-1', amount: 2490, currency: 'USD' };

export const token: (request: Request) => Promise<Response> = createTokenHandler({
  client,
  resolve: async () => params,
});

export async function key(): Promise<string> {
  try {
    return (await client.obtainToken(params)).key;
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((issue) => issue.path).join(',');
    throw error;
  }
}
