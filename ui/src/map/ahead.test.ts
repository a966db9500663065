import { describe, expect, it } from 'vitest'
import { ANNECY, OVERSEAS } from '../test/places'
import { MAP_HEIGHT, VIEW_MARGIN, firstMapArea } from './ahead'
import { type LonLat, MAP, makeProjection, startCenter, visibleBox } from './geo'

const at = (p: { longitude: number; latitude: number }): LonLat => [p.longitude, p.latitude]
const places: [string, LonLat | null][] = [
  ['Annecy', at(ANNECY)],
  ['Brest', [-4.486, 48.39]],
  ['Dunkerque', [2.377, 51.034]],
  ['Ajaccio', [8.738, 41.919]],
  ['nowhere (the default centre)', null],
  ...OVERSEAS.map((o): [string, LonLat] => [o.name, at(o)]),
]

describe('firstMapArea', () => {
  it.each(places.flatMap(([name, own]) => [320, 800, 1440, 2560].map((width) => ({ name, own, width }))))(
    'holds the first view of a map at most $width px wide around $name',
    ({ own, width }) => {
      const area = firstMapArea(own, width)
      expect(area.zoom).toBe(MAP.zoom)
      // The map as wide as the window, or narrower (the shop's dashboard: two thirds of it).
      for (const w of [width, Math.round(width * 0.6)]) {
        const view = visibleBox(makeProjection(startCenter(own), MAP.zoom, w, MAP_HEIGHT), w, MAP_HEIGHT, VIEW_MARGIN)!
        expect(area.south).toBeLessThanOrEqual(view.south)
        expect(area.north).toBeGreaterThanOrEqual(view.north)
        expect(area.west).toBeLessThanOrEqual(view.west)
        expect(area.east).toBeGreaterThanOrEqual(view.east)
      }
    },
  )

  it('is not much wider than the view (its shops are read at once)', () => {
    const area = firstMapArea(at(ANNECY), 1440)
    const view = visibleBox(makeProjection(at(ANNECY), MAP.zoom, 1440, MAP_HEIGHT), 1440, MAP_HEIGHT, VIEW_MARGIN)!
    expect((area.east - area.west) / (view.east - view.west)).toBeLessThan(1.4)
    expect((area.north - area.south) / (view.north - view.south)).toBeLessThan(1.4)
  })
})
