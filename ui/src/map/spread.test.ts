import { describe, expect, it } from 'vitest'
import { makeProjection } from './geo'
import {
  CENTRE,
  type Frame,
  MIN_APART,
  PIN,
  SPREAD_MAX,
  inwardShift,
  pinCoversCentre,
  pinsOverlap,
  spreadBox,
  spreadOffsets,
  stackPoints,
} from './spread'

const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y)

/** Every two markers at least `apart` from each other, every pin in exactly one. */
function checkStacks(points: { id: string; x: number; y: number }[], apart = MIN_APART) {
  const stacks = stackPoints(points, apart)
  for (let i = 0; i < stacks.length; i++)
    for (let j = i + 1; j < stacks.length; j++) expect(dist(stacks[i], stacks[j])).toBeGreaterThanOrEqual(apart)
  expect(stacks.flatMap((s) => s.ids).sort()).toEqual(points.map((p) => p.id).sort())
  return stacks
}

describe('stackPoints', () => {
  it('joins two shops placed on the same commune into one stack at their point', () => {
    const stacks = checkStacks([
      { id: 'b', x: 200, y: 120 },
      { id: 'a', x: 200, y: 120 },
      { id: 'c', x: 320, y: 120 },
    ])
    expect(stacks).toEqual([
      { key: 'a b', ids: ['b', 'a'], x: 200, y: 120 },
      { key: 'c', ids: ['c'], x: 320, y: 120 },
    ])
  })

  it('joins pins too close for a finger, and leaves apart those that are not', () => {
    const stacks = checkStacks([
      { id: 'a', x: 100, y: 100 },
      { id: 'b', x: 100 + MIN_APART - 1, y: 100 },
      { id: 'c', x: 100 + 3 * MIN_APART, y: 100 },
    ])
    expect(stacks.map((s) => s.ids)).toEqual([['a', 'b'], ['c']])
  })

  it('joins a stack whose mean comes near another marker', () => {
    // a–b and c–d are each a stack; their means are 20 px apart: one stack of four.
    const stacks = checkStacks([
      { id: 'a', x: 0, y: 0 },
      { id: 'b', x: 20, y: 0 },
      { id: 'c', x: 30, y: 0 },
      { id: 'd', x: 50, y: 0 },
    ])
    expect(stacks).toHaveLength(1)
    expect(stacks[0].x).toBe(25)
  })

  it('keeps every marker apart on a crowded town seen from afar', () => {
    // 150 shops over 10 km around Lyon, a dozen on the commune's own point, at each zoom.
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const shops = Array.from({ length: 150 }, (_, i) => {
      const same = i < 12
      return {
        id: `s${i}`,
        lonLat: [4.8357 + (same ? 0 : (random() - 0.5) * 0.25), 45.764 + (same ? 0 : (random() - 0.5) * 0.18)] as [
          number,
          number,
        ],
      }
    })
    for (const zoom of [0.5, 1, 2, 4]) {
      const projection = makeProjection([4.8357, 45.764], zoom, 390, 440)
      const points = shops.map((s) => {
        const [x, y] = projection(s.lonLat)!
        return { id: s.id, x, y }
      })
      const stacks = checkStacks(points)
      // The twelve of the commune's point are always together.
      const town = stacks.find((s) => s.ids.includes('s0'))!
      for (let i = 1; i < 12; i++) expect(town.ids).toContain(`s${i}`)
    }
  })

  it('gives the same shops the same key wherever the map moves', () => {
    const a = stackPoints([
      { id: 'x', x: 10, y: 10 },
      { id: 'y', x: 12, y: 10 },
    ])
    const b = stackPoints([
      { id: 'y', x: 300, y: 210 },
      { id: 'x', x: 302, y: 210 },
    ])
    expect(a[0].key).toBe(b[0].key)
  })
})

describe('spreadOffsets', () => {
  it.each(Array.from({ length: SPREAD_MAX - 1 }, (_, i) => i + 2))(
    'spreads %i shops so that no pin covers another, nor the stack’s button',
    (n) => {
      const spots = spreadOffsets(n)
      expect(spots).toHaveLength(n)
      for (let i = 0; i < n; i++) {
        expect(pinCoversCentre(spots[i])).toBe(false)
        for (let j = i + 1; j < n; j++) expect(pinsOverlap(spots[i], spots[j])).toBe(false)
      }
      // Tight: every pin's box within 80 px of the point (a phone's map is 390 px wide).
      for (const [x, y] of spots) {
        expect(Math.abs(x) + PIN.right).toBeLessThanOrEqual(80)
        expect(Math.max(Math.abs(y - PIN.top), Math.abs(y))).toBeLessThanOrEqual(80)
      }
    },
  )

  it('starts straight up and goes clockwise', () => {
    const [top, right, bottom, left] = spreadOffsets(4)
    expect(top[0]).toBe(0)
    expect(top[1]).toBeLessThan(-CENTRE)
    expect(right[0]).toBeGreaterThan(0)
    expect(bottom[1]).toBeGreaterThan(top[1])
    expect(left[0]).toBeLessThan(0)
  })

  it('tells covering pins from clear ones', () => {
    expect(pinsOverlap([0, 0], [0, 0])).toBe(true)
    expect(pinsOverlap([0, 0], [30, 0])).toBe(false)
    expect(pinsOverlap([0, 0], [0, 20])).toBe(true) // the lower one's head under the upper one's tip
    expect(pinsOverlap([0, 0], [0, 40])).toBe(false)
    expect(pinCoversCentre([0, 0])).toBe(true)
    expect(pinCoversCentre([0, 50])).toBe(false)
  })
})

describe('inwardShift', () => {
  // A phone's map: 358 × 440, the credits' 16 pixels off its bottom, the zoom buttons in the top right corner.
  const frame: Frame = { x0: 0, y0: 0, x1: 358, y1: 424 }
  const controls: Frame = { x0: 358 - 52, y0: 6, x1: 358 - 6, y1: 132 }
  const inside = (b: Frame, f: Frame, margin: number) =>
    b.x0 >= f.x0 + margin - 1e-9 &&
    b.x1 <= f.x1 - margin + 1e-9 &&
    b.y0 >= f.y0 + margin - 1e-9 &&
    b.y1 <= f.y1 - margin + 1e-9
  const clear = (a: Frame, b: Frame) => a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0

  it('leaves a stack alone when its spread is already inside the map', () => {
    expect(inwardShift(180, 220, spreadOffsets(3), frame, [controls])).toEqual([0, 0])
    expect(inwardShift(180, 220, spreadOffsets(SPREAD_MAX), frame, [controls])).toEqual([0, 0])
  })

  it('moves a spread at an edge inward by just what it needs, on that axis only', () => {
    const offsets = spreadOffsets(3)
    const box = spreadBox(350, 220, offsets)
    expect(box.x1).toBeGreaterThan(frame.x1)
    const [dx, dy] = inwardShift(350, 220, offsets, frame, [], 4)
    expect(dy).toBe(0)
    expect(dx).toBe(frame.x1 - 4 - box.x1)
    // From the left edge and the top: to the right and down.
    const [lx, ly] = inwardShift(5, 220, offsets, frame)
    expect(lx).toBeGreaterThan(0)
    expect(ly).toBe(0)
    const [tx, ty] = inwardShift(180, 2, offsets, frame)
    expect(tx).toBe(0)
    expect(ty).toBeGreaterThan(0)
  })

  it('takes the shortest way out from under the map’s buttons', () => {
    const offsets = spreadOffsets(2)
    // Just left of the buttons, level with them: moving left is shorter than moving down under them.
    const [dx, dy] = inwardShift(300, 90, offsets, frame, [controls], 4)
    const at = spreadBox(300 + dx, 90 + dy, offsets)
    expect(clear(at, { x0: controls.x0 - 4, y0: controls.y0 - 4, x1: controls.x1 + 4, y1: controls.y1 + 4 })).toBe(true)
    expect(dx).toBeLessThan(0)
    expect(dy).toBe(0)
  })

  it('brings every spread, from anywhere around the map, inside it and clear of its buttons', () => {
    for (let n = 2; n <= SPREAD_MAX; n++) {
      const offsets = spreadOffsets(n)
      for (let x = -80; x <= 438; x += 13)
        for (let y = -40; y <= 504; y += 17) {
          const [dx, dy] = inwardShift(x, y, offsets, frame, [controls], 4)
          const at = spreadBox(x + dx, y + dy, offsets)
          expect(inside(at, frame, 4), `${n} shops at ${x},${y}`).toBe(true)
          expect(clear(at, controls), `${n} shops at ${x},${y} under the buttons`).toBe(true)
        }
    }
  })

  it('centres a spread larger than the map in it', () => {
    const small: Frame = { x0: 0, y0: 0, x1: 60, y1: 60 }
    const offsets = spreadOffsets(SPREAD_MAX)
    const [dx, dy] = inwardShift(10, 10, offsets, small, [], 0)
    const at = spreadBox(10 + dx, 10 + dy, offsets)
    expect((at.x0 + at.x1) / 2).toBeCloseTo(30)
    expect((at.y0 + at.y1) / 2).toBeCloseTo(30)
  })
})
