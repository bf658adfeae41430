// The amount is a number of minor units: a string must not compile.
import { PaymentClient } from 'pay-form/server';

const client = new PaymentClient({ baseUrl: 'https://pay.example', merchantId: 'm-1', secret: 's' });
await client.obtainToken({ site_login: 'alice', site_id: 1, request_id: 'order-1', amount: '24.90', currency: 'USD' });
