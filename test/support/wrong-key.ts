/**
 * A credential one character off a real one: its last character changed to another. (Appending a
 * fixed character after dropping the last one gives the real key back once in 62 runs.)
 */
export const wrongByOne = (key: string): string => `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
