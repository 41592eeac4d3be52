/** Freezes a validated fact tree so neither the adapter nor a host can change it afterwards. Typed arrays stay as they are. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) freezeTree(value);
  return value;
}

// Children are tested before the call and arrays walked by index: per execution this runs over every fact the
// adapter returned, so it skips the calls on primitives and the key array an index walk does not need.
function freezeTree(value: object): void {
  if (Object.isFrozen(value) || ArrayBuffer.isView(value)) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const element: unknown = value[index];
      if (typeof element === 'object' && element !== null) freezeTree(element);
    }
  } else {
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index += 1) {
      const member: unknown = (value as Record<string, unknown>)[keys[index] as string];
      if (typeof member === 'object' && member !== null) freezeTree(member);
    }
  }
  Object.freeze(value);
}
