import test from 'node:test'; test('todo', () => {});
