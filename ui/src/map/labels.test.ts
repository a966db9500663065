import { describe, expect, it } from 'vitest'
import { type LabelRequest, type Spot, labelBox, overlaps, placeLabels } from './labels'

const SPOTS: Spot[] = [
  { dx: 0, dy: -35, anchor: 'middle' },
  { dx: 0, dy: 17, anchor: 'middle' },
  { dx: 15, dy: -17, anchor: 'start' },
]

const shop = (id: string, x: number, y: number, text = 'Magasin'): LabelRequest => ({
  id,
  x,
  y,
  text,
  fontSize: 10,
  spots: SPOTS,
})

describe('labelBox', () => {
  it('estimates the box from the text length and anchor', () => {
    // 4 glyphs × 10 px × 0.56 = 22.4 px wide; baseline at y − 35.
    const b = labelBox({ x: 100, y: 100, text: 'Lyon', fontSize: 10 }, { dx: 0, dy: -35, anchor: 'middle' })
    expect(b.x0).toBeCloseTo(88.8)
    expect(b.x1).toBeCloseTo(111.2)
    expect(b.y0).toBeCloseTo(57)
    expect(b.y1).toBeCloseTo(67.5)
    expect(labelBox({ x: 0, y: 0, text: 'ab', fontSize: 10 }, { dx: 5, dy: 0, anchor: 'start' }).x0).toBe(5)
    expect(
      labelBox({ x: 0, y: 0, text: 'ab', fontSize: 10, bold: true }, { dx: -5, dy: 0, anchor: 'end' }).x1,
    ).toBeCloseTo(-5)
  })

  it('tells overlapping boxes apart from touching ones', () => {
    expect(overlaps({ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 5, y0: 5, x1: 15, y1: 15 })).toBe(true)
    expect(overlaps({ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 10, y0: 0, x1: 20, y1: 10 })).toBe(false)
  })
})

describe('placeLabels', () => {
  it('keeps the preferred spot (the PRODUCT offset) when nothing collides', () => {
    const out = placeLabels([shop('a', 100, 100), shop('b', 400, 100)])
    expect(out.get('a')).toEqual({ dx: 0, dy: -35, anchor: 'middle' })
    expect(out.get('b')).toEqual({ dx: 0, dy: -35, anchor: 'middle' })
  })

  it('moves a colliding label to its next free spot, in priority order', () => {
    const out = placeLabels([shop('a', 100, 100), shop('b', 110, 102), shop('c', 105, 98)])
    expect(out.get('a')?.dy).toBe(-35)
    expect(out.get('b')).toEqual({ dx: 0, dy: 17, anchor: 'middle' })
    expect(out.get('c')).toEqual({ dx: 15, dy: -17, anchor: 'start' })
  })

  it('leaves out a label with no free spot', () => {
    const out = placeLabels([shop('a', 100, 100), shop('b', 100, 100), shop('c', 100, 100), shop('d', 100, 100)])
    expect([...out.values()].filter(Boolean)).toHaveLength(3)
    expect(out.get('d')).toBeNull()
  })

  it('lets a higher-ranked label cover lower-ranked markers only', () => {
    const shopLabel: LabelRequest = { ...shop('s', 100, 100), rank: 1 }
    const dot = { id: 'city', box: { x0: 95, y0: 60, x1: 105, y1: 70 } } // right under the preferred spot
    const pin = { id: 'other', box: { x0: 95, y0: 60, x1: 105, y1: 70 }, rank: 1 }
    expect(placeLabels([shopLabel], [dot]).get('s')?.dy).toBe(-35)
    expect(placeLabels([shopLabel], [pin]).get('s')?.dy).toBe(17)
    expect(placeLabels([shop('c', 100, 100)], [pin]).get('c')?.dy).toBe(17)
  })

  it('avoids the other markers but not its own', () => {
    const city: LabelRequest = {
      id: 'city',
      x: 100,
      y: 100,
      text: 'Annecy',
      fontSize: 12,
      spots: [
        { dx: 7, dy: 4, anchor: 'start' },
        { dx: -7, dy: 4, anchor: 'end' },
      ],
    }
    const ownDot = { id: 'city', box: { x0: 96, y0: 96, x1: 104, y1: 104 } }
    expect(placeLabels([city], [ownDot]).get('city')?.anchor).toBe('start')
    const pinOnTheRight = { id: 'shop', box: { x0: 110, y0: 70, x1: 132, y1: 103 } }
    expect(placeLabels([city], [ownDot, pinOnTheRight]).get('city')?.anchor).toBe('end')
  })
})
