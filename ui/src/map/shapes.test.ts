import { describe, expect, it } from 'vitest'
import { makeProjection, visibleBox } from './geo'
import { DEPARTMENTS, departmentsIn, outlineBox } from './shapes'

const codes = (list: { properties: { CC_2: string } }[]) => list.map((d) => d.properties.CC_2)

describe('outlineBox', () => {
  it.each([
    {
      name: 'a polygon',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [6, 45],
            [7, 46.5],
            [5.5, 46],
            [6, 45],
          ],
        ],
      },
      want: { south: 45, west: 5.5, north: 46.5, east: 7 },
    },
    {
      name: 'a multipolygon (an island apart)',
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [-1, 46],
              [-0.5, 46.2],
              [-1, 46.1],
              [-1, 46],
            ],
          ],
          [
            [
              [-2.4, 46.7],
              [-2.3, 46.75],
              [-2.4, 46.72],
              [-2.4, 46.7],
            ],
          ],
        ],
      },
      want: { south: 46, west: -2.4, north: 46.75, east: -0.5 },
    },
    { name: 'no point', geometry: { type: 'MultiPolygon', coordinates: [] }, want: null },
  ] as const)('gives the extremes of $name', ({ geometry, want }) => {
    expect(outlineBox(geometry as unknown as Parameters<typeof outlineBox>[0])).toEqual(want)
  })

  it('holds every department within metropolitan France', () => {
    for (const d of DEPARTMENTS) {
      const box = outlineBox(d.geometry)!
      expect(box.west).toBeGreaterThan(-5.5)
      expect(box.east).toBeLessThan(10)
      expect(box.south).toBeGreaterThan(41)
      expect(box.north).toBeLessThan(51.5)
    }
  })
})

describe('departmentsIn', () => {
  it.each([
    {
      name: 'the default view on Annecy',
      view: visibleBox(makeProjection([6.1213, 45.9016], 1, 1288, 440), 1288, 440, 80),
      has: ['74', '73', '01', '38'],
      hasNot: ['29', '75', '13', '2A'],
    },
    {
      name: 'Marseille at the largest zoom',
      view: visibleBox(makeProjection([5.37, 43.3], 4, 390, 440), 390, 440, 80),
      has: ['13'],
      hasNot: ['74', '06', '29'],
    },
    { name: 'a view off the globe', view: null, has: ['29', '74', '2A'], hasNot: [] },
  ])('keeps the departments of $name', ({ view, has, hasNot }) => {
    const kept = codes(departmentsIn(view))
    for (const code of has) expect(kept).toContain(code)
    for (const code of hasNot) expect(kept).not.toContain(code)
  })

  it('keeps all 96 for a view of all France', () => {
    expect(departmentsIn({ south: 41, west: -5.5, north: 51.5, east: 10 })).toHaveLength(96)
  })
})
