// Amounts travel in minor units (the service's integers); people read them in their currency's format.

/** How many minor-unit digits a currency has (VND 0, USD 2); two for codes Intl does not know (USDT). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units to a localised amount, exactly (string arithmetic, no float rounding). Currencies Intl
 *  does not know (USDT) get their code after the number. */
export function formatAmount(minor: number, currency: string, locale: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const raw = String(Math.abs(minor)).padStart(digits + 1, '0');
  // Intl formats a decimal string exactly; its types only name number and bigint.
  const decimal = (digits ? `${sign}${raw.slice(0, -digits)}.${raw.slice(-digits)}` : `${sign}${raw}`) as unknown as number;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(decimal);
  } catch {
    const plain = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    return `${plain.format(decimal)} ${currency}`;
  }
}
