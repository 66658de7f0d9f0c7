// Implements: PROTO-AUTH-001, PROTO-AUTH-002, PROTO-AUTH-005, AUTH-SELF-008, FEED-REQ-008
/** Extracts the secret from `Authorization: Basic base64(secret:)` or `Authorization: Bearer <secret>`. */
export function secretFromAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (value === '') return undefined;
  if (scheme === 'bearer') return value;
  if (scheme !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  // The secret is the user name; the password part is empty (a trailing `:` is dropped).
  const colon = decoded.lastIndexOf(':');
  const secret = colon >= 0 && decoded.slice(colon + 1) === '' ? decoded.slice(0, colon) : decoded;
  return secret === '' ? undefined : secret;
}
