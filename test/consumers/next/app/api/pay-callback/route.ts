// app/api/pay-callback/route.ts: where the payment service sends its signed callbacks.
import { payConfig, payHandlers } from '../../../pay';

export const POST = payHandlers(payConfig(process.env)).callback;
