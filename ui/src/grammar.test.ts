import { describe, expect, it } from 'vitest'
import contractions from '../../core/grammar/testdata/contractions.json'
import elisions from '../../core/grammar/testdata/elisions.json'
import { de, elide, to } from './grammar'

// The tables core/grammar's tests read too: one rule on both sides.
describe('French elisions', () => {
  it.each(elisions)('$word $text', ({ word, text, want }) => {
    expect(elide(word, text)).toBe(want)
  })
})

describe('French contractions of names', () => {
  it.each(contractions)('$name', ({ name, de: withDe, a: withTo }) => {
    expect(de(name)).toBe(withDe)
    expect(to(name)).toBe(withTo)
  })
})
