// app/api/pay-token/route.ts: the token endpoint that <pay-form token-url="/api/pay-token"> calls.
import { payConfig, payHandlers } from '../../../pay';

export const POST = payHandlers(payConfig(process.env)).token;
