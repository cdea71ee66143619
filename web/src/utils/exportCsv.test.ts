import { describe, expect, it } from 'vitest';
import { buildCsv } from './exportCsv';

describe('buildCsv', () => {
  it('writes a BOM, a header and quoted cells', () => {
    const csv = buildCsv(
      [
        { title: '标题', value: (r: { t: string; n: number }) => r.t },
        { title: '金额', value: (r) => r.n },
      ],
      [
        { t: 'a,"b"', n: 12.5 },
        { t: '=SUM(A1)', n: -3 },
      ],
    );
    expect(csv).toBe('\uFEFF标题,金额\r\n"a,""b""",12.5\r\n\'=SUM(A1),-3\r\n');
  });
});
