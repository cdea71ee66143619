import { describe, expect, it } from 'vitest';
import { containsOperator, likePattern } from './like.js';

describe('containsOperator', () => {
  it('takes LIKE for a text without cased letters, which ILIKE would find alike', () => {
    for (const text of ['赵', '1101', '00034922', '2号楼1单元', '-%_', '']) expect([text, containsOperator(text)]).toEqual([text, 'like']);
  });
  it('keeps ILIKE for any cased letter, Latin or not', () => {
    for (const text of ['ab-', 'A', '沪A', 'É', 'ß', 'Σ', '赵x']) expect([text, containsOperator(text)]).toEqual([text, 'ilike']);
  });
  it('takes the text literally in the pattern', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
