// What bench/ledger's processes agree on.
export const MERCHANT = 'bench-merchant';
export const SECRET = 'bench-secret';
