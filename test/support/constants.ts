// The merchant every node test plays, shared by the server and sandbox tests. The secret is not ASCII
// on purpose: it proves the HMAC key is taken as UTF-8 bytes on both sides.
export const SECRET = 'test-secret-ключ-Ω';
export const MERCHANT = 'merchant-1';
