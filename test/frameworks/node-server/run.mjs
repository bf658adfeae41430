// Plain Node, no TypeScript loader: the built pay-form/server and pay-form/sandbox, imported by name,
// obtain a real key from a real sandbox on loopback. Prints the outcome as JSON for the test to read.
import { PaymentClient, ValidationError } from 'pay-form/server';
import { startSandbox } from 'pay-form/sandbox';

const sandbox = await startSandbox({ port: 0, merchantId: 'm-1', secret: 'shared-secret' });
try {
  const client = new PaymentClient({ baseUrl: sandbox.url, merchantId: 'm-1', secret: 'shared-secret' });
  const token = await client.obtainToken({ site_login: 'alice', site_id: 1, request_id: 'order-1', amount: 2490, currency: 'USD' });
  let refused = null;
  try {
    await client.createPayout({ site_login: 'alice', site_id: 1, request_id: 'p-1', amount: 100, currency: 'GBP', method: 'card', additional_fields: {} });
  } catch (error) {
    refused = error instanceof ValidationError ? error.issues.map((issue) => issue.path) : String(error);
  }
  console.log(JSON.stringify({ key: token.key, refused }));
} finally {
  await sandbox.close();
}
