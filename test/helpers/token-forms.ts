/**
 * The token written in the ways a target could echo it, spelled out here independently of the suite's scanner,
 * so a test that finds none of them in an artifact does not take the scanner's word for it.
 */
export function tokenForms(token: string, passwords: readonly string[] = ['x', '', 'z', 'a:b:c']): string[] {
  const bytes = Buffer.from(token, 'utf8');
  // The base64 characters the token's bytes alone decide, at each offset in a 3-byte group.
  const base64Cores = [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]).toString('base64');
    return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
  });
  const forms = [
    token,
    token.toLowerCase(),
    token.toUpperCase(),
    JSON.stringify(token).slice(1, -1).replaceAll('/', '\\/'),
    encodeURIComponent(token),
    encodeURIComponent(token).toLowerCase(),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    ...base64Cores,
    // Hex of a header that carries it in base64, as a dump of the raw request writes it.
    ...base64Cores.map((core) => Buffer.from(core).toString('hex')),
    ...passwords.map((password) => Buffer.from(`${token}:${password}`).toString('base64')),
    // The token as the password under an empty user name, as Basic ":TOKEN" carries it.
    Buffer.from(`:${token}`).toString('base64'),
  ];
  return [...new Set(forms.filter((form) => form.length >= 4))];
}

/** The forms of the token found in a text: what a leak looks like, named for the failure message. */
export function tokenFormsIn(text: string, token: string): string[] {
  return tokenForms(token).filter((form) => text.includes(form));
}
