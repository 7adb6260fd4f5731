/**
 * Parses one JSON text as a strict reader does: `JSON.parse` for the syntax, then a walk of the text for
 * objects that name a key twice, which JSON.parse silently lets the last one win and strict readers
 * (and log pipelines that index by key) refuse. Throws with the repeated key.
 */
export function parseStrictJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const keys: Array<Set<string> | null> = [];
  let i = 0;
  const readString = (): string => {
    const start = i;
    i++; // the opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '{') {
      keys.push(new Set());
      i++;
    } else if (c === '[') {
      keys.push(null);
      i++;
    } else if (c === '}' || c === ']') {
      keys.pop();
      i++;
    } else if (c === '"') {
      const s = readString();
      const scope = keys.at(-1);
      // A string right before a colon is a key of the innermost object.
      let j = i;
      while (/\s/.test(text[j] ?? '')) j++;
      if (scope && text[j] === ':') {
        if (scope.has(s))
          throw new Error(`the key "${s}" appears twice in one object: ${text.slice(0, 200)}`);
        scope.add(s);
      }
    } else i++;
  }
  return value;
}
