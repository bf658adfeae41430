// The service's callback to the merchant (docs/service-contract.md, Callbacks): the service shows no
// payload, so pay-form chose one; the sandbox sends every field below and the callback handler hands
// the verified object on with whatever else the service adds.
import type { JsonValue } from './json.js';

/** The verified callback, without its signature. Fields beyond invoice_id and status pass through. */
export interface CallbackPayload {
  invoice_id: string;
  status: string;
  /** The merchant's order identifier, echoed. */
  request_id?: JsonValue;
  /** Minor units. */
  amount?: JsonValue;
  currency?: JsonValue;
  site_id?: JsonValue;
  site_login?: JsonValue;
  merchant_id?: JsonValue;
  [field: string]: JsonValue | undefined;
}
