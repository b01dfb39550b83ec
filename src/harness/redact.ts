export const REDACTED = '<redacted>';

/** Every form in which the token could show up in text the suite records or writes. */
export function secretForms(token: string): string[] {
  if (token.length === 0) return [];
  const forms = new Set<string>([token, encodeURIComponent(token)]);
  // A Basic credential starts with the token, so base64 of its leading 3-byte groups is stable whatever follows.
  const alignedBytes = Math.floor(Buffer.byteLength(token) / 3) * 3;
  if (alignedBytes >= 3) {
    forms.add(Buffer.from(token).subarray(0, alignedBytes).toString('base64'));
  }
  return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

export function createRedactor(token: string): (text: string) => string {
  const forms = secretForms(token);
  return (text) => forms.reduce((result, form) => result.replaceAll(form, REDACTED), text);
}

/** Returns the first secret form found in the text, so the caller can refuse to write it. */
export function findSecret(text: string, token: string): string | undefined {
  return secretForms(token).find((form) => text.includes(form));
}
