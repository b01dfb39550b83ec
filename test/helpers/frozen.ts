/** Where a model holds an object or array that is not frozen (its JSON pointer): nowhere, in a model built once. */
export function unfrozenPaths(value: unknown, at = ''): string[] {
  if (!(value instanceof Object)) return [];
  return [
    ...(Object.isFrozen(value) ? [] : [at || '/']),
    ...Object.entries(value).flatMap(([key, item]) => unfrozenPaths(item, `${at}/${key}`)),
  ];
}
