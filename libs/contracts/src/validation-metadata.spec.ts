import { IsInt, IsString, Max, MaxLength, validateSync } from 'class-validator';
import { parseRequest } from './validation';

/** parseRequest memoises class-validator's per-class metadata (validation-metadata.ts): the same verdicts as without it. */
describe('memoised validation metadata', () => {
  class Base {
    @IsString() @MaxLength(5) name!: string;
  }
  class Child extends Base {
    @IsInt() @Max(10) n!: number;
  }

  it('gives each class its own and its parents\u2019 checks, every time', () => {
    for (let i = 0; i < 3; i++) {
      expect(() => parseRequest(Child, { name: 'abc', n: 3 })).not.toThrow();
      expect(() => parseRequest(Child, { name: 'abcdefg', n: 3 })).toThrow(expect.objectContaining({ param: 'name' }));
      expect(() => parseRequest(Child, { name: 'abc', n: 30 })).toThrow(expect.objectContaining({ param: 'n' }));
      expect(() => parseRequest(Base, { name: 'abc', n: 3 })).toThrow(expect.objectContaining({ type: 'unexpected_parameter', param: 'n' }));
    }
  });

  it('sees checks registered after a class was first validated (a class declared later, extending it)', () => {
    expect(() => parseRequest(Base, { name: 'ab' })).not.toThrow();
    class Later extends Base {
      @IsString() @MaxLength(2) code!: string;
    }
    expect(() => parseRequest(Later, { name: 'ab', code: 'xyz' })).toThrow(expect.objectContaining({ param: 'code' }));
    expect(() => parseRequest(Later, { name: 'abcdefg', code: 'xy' })).toThrow(expect.objectContaining({ param: 'name' }));
    expect(() => parseRequest(Later, { name: 'ab', code: 'xy' })).not.toThrow();
  });

  it('sees a check added to a class it has already validated', () => {
    class Open {
      @IsString() a!: string;
      b?: unknown;
    }
    expect(() => parseRequest(Open, { a: 'x', b: 'y' })).toThrow(expect.objectContaining({ type: 'unexpected_parameter', param: 'b' }));
    IsInt()(Open.prototype, 'b');
    expect(() => parseRequest(Open, { a: 'x', b: 'y' })).toThrow(expect.objectContaining({ type: 'invalid_parameter', param: 'b' }));
    expect(() => parseRequest(Open, { a: 'x', b: 4 })).not.toThrow();
  });

  it('passes calls with groups through unmemoised', () => {
    class Grouped {
      @IsInt({ groups: ['strict'] }) n!: unknown;
    }
    const v = Object.assign(new Grouped(), { n: 'x' });
    const checks = (groups: string[]) => validateSync(v, { groups }).flatMap((e) => Object.keys(e.constraints ?? {}));
    for (let i = 0; i < 2; i++) {
      expect(checks(['strict'])).toEqual(['isInt']);
      expect(checks(['other'])).not.toContain('isInt');
    }
  });
});
