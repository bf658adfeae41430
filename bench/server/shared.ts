// What the bench processes agree on: the merchant, its secret and the order every token request names.
export const SECRET = 'bench-secret';
export const MERCHANT = 'bench-merchant';
export const TOKEN_PARAMS = { site_login: 'alice', site_id: 12, request_id: 'order-1', amount: 1500, currency: 'USD' } as const;
