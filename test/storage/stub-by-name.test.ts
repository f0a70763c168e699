import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { lazyStub, stubByName } from '../../src/storage/stub-by-name';

describe('stubByName', () => {
  it('derives a name’s id once per isolate and makes a fresh stub each time', () => {
    let derived = 0;
    const namespace = new Proxy(env.MODEL_HEALTH, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop === 'idFromName') {
          return (name: string) => {
            derived++;
            return target.idFromName(name);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const first = stubByName(namespace, 'stub-by-name-test');
    const second = stubByName(namespace, 'stub-by-name-test');
    expect(derived).toBe(1);
    expect(first).not.toBe(second);
    expect(first.id.equals(second.id)).toBe(true);
    expect(first.id.equals(env.MODEL_HEALTH.idFromName('stub-by-name-test'))).toBe(true);
  });
});

describe('lazyStub', () => {
  it('makes its stub only when a method is first called, once, and is not a thenable', async () => {
    let made = 0;
    const stub = lazyStub(() => {
      made++;
      return { ping: (x: number) => x + 1 };
    });
    const awaited = await stub;
    expect(awaited).toBe(stub);
    expect(made).toBe(0);
    expect(await stub.ping(1)).toBe(2);
    expect(await stub.ping(2)).toBe(3);
    expect(made).toBe(1);
  });
});
