/**
 * A Durable Object namespace whose stubs a test makes: `getByName` as given, and `idFromName` / `get`
 * answering the same stubs, so code that derives an id once and makes stubs from it (stubByName) sees
 * the fake too. The id is the name itself.
 */
export function fakeNamespace<T>(getByName: (name: string) => T) {
  return { getByName, idFromName: (name: string) => name, get: (id: string) => getByName(id) };
}
