/** Frozen all the way down: a view or a writer that tried to change a built report or matrix would throw. */
export function deepFreeze<T>(value: T): T {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return value;
  Object.freeze(value);
  // Walked without a list of its values or an iterator made for each object or array: a report holds hundreds.
  if (Array.isArray(value)) for (let index = 0; index < value.length; index += 1) deepFreeze(value[index]);
  else for (const key in value) if (Object.hasOwn(value, key)) deepFreeze(value[key]);
  return value;
}
