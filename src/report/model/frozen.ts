/** Frozen all the way down: a view or a writer that tried to change a built report or matrix would throw. */
export function deepFreeze<T>(value: T): T {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return value;
  Object.freeze(value);
  // Walked without a list of its values made for each object: a report holds hundreds.
  if (Array.isArray(value)) for (const item of value) deepFreeze(item);
  else for (const key in value) if (Object.hasOwn(value, key)) deepFreeze(value[key]);
  return value;
}
