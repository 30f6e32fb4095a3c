/** "1 key", "3 keys", "2 commands turned away": a count with its word, for the Cluster view's prose. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
