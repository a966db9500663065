import { describe, expect, it } from 'vitest'
import { type LabelRequest, type Spot, estimateExtent, inside, labelBox, overlaps, placeLabels } from './labels'

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

  it('never lets a label be cut by the edges of the view', () => {
    const frame = { x0: 0, y0: 0, x1: 390, y1: 420 }
    // Centred above or below a pin at the left edge, the name would start off the view: it goes right.
    expect(placeLabels([shop('a', 5, 200, 'Épicerie du Lac')], [], { frame }).get('a')?.anchor).toBe('start')
    // Above a pin at the top, it would be cut: it goes below.
    expect(placeLabels([shop('b', 200, 20)], [], { frame }).get('b')?.dy).toBe(17)
    // Under the credits along the bottom (the frame stops above them), it is left out.
    expect(placeLabels([{ ...shop('c', 380, 430), spots: [SPOTS[1]] }], [], { frame }).get('c')).toBeNull()
  })

  it('places no two labels over each other, nor over a marker, on a crowded map', () => {
    let seed = 11
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const frame = { x0: 0, y0: 0, x1: 390, y1: 420 }
    const requests: LabelRequest[] = Array.from({ length: 40 }, (_, i) => ({
      ...shop(`s${i}`, random() * 390, random() * 440, `Magasin ${'x'.repeat(i % 12)}`),
      fontSize: 13,
      bold: true,
      rank: 1,
    }))
    const obstacles = requests.map((r) => ({
      id: r.id,
      box: { x0: r.x - 11, y0: r.y - 33, x1: r.x + 11, y1: r.y },
      rank: 1,
    }))
    const out = placeLabels(requests, obstacles, { frame })
    const boxes = requests
      .filter((r) => out.get(r.id))
      .map((r) => ({ id: r.id, box: labelBox(r, out.get(r.id)!, estimateExtent) }))
    expect(boxes.length).toBeGreaterThan(10)
    for (let i = 0; i < boxes.length; i++) {
      expect(inside(boxes[i].box, frame)).toBe(true)
      for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i].box, boxes[j].box)).toBe(false)
      for (const o of obstacles) if (o.id !== boxes[i].id) expect(overlaps(boxes[i].box, o.box)).toBe(false)
    }
  })

  it('measures with the function given', () => {
    const wide = () => ({ width: 100, ascent: 10, descent: 4 })
    expect(labelBox({ x: 0, y: 0, text: 'a', fontSize: 10 }, { dx: 0, dy: 0, anchor: 'start' }, wide)).toEqual({
      x0: 0,
      y0: -10,
      x1: 100,
      y1: 4,
    })
  })
})
