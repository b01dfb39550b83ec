/** Frozen all the way down: a view or a writer that tried to change a built report or matrix would throw. */
export function deepFreeze<T>(value: T): T {
  if (value instanceof Object) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
