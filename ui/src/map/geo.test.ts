import { describe, expect, it } from 'vitest'
import { OVERSEAS } from '../test/places'
import cities from './data/cities.json'
import {
  type City,
  MAP,
  boxesOverlap,
  canZoomIn,
  canZoomOut,
  cityLonLat,
  departmentCode,
  draggedCenter,
  makeProjection,
  parseCoordinate,
  postalCode,
  shopLonLat,
  startCenter,
  topCities,
  visibleBox,
  zoomIn,
  zoomOut,
} from './geo'

describe('map constants (PRODUCT §9)', () => {
  it('has the specified values', () => {
    expect(MAP).toEqual({
      scale: 20000,
      center: [6.1213, 45.9016],
      zoom: 1,
      maxZoom: 4,
      minZoom: 0.5,
      zoomFactor: 2,
      citiesPerDepartment: 3,
      shopLabelOffset: -35,
    })
  })
})

describe('zoom (PRODUCT §4)', () => {
  it.each([
    [0.5, 1],
    [1, 2],
    [2, 4],
    [3, 4],
    [4, 4],
    [6, 6],
  ])('zoomIn(%s) = %s', (z, want) => expect(zoomIn(z)).toBe(want))

  it.each([
    [4, 2],
    [2, 1],
    [1, 0.5],
    [0.5, 0.5],
    [0.7, 0.5],
    [0.3, 0.5],
  ])('zoomOut(%s) = %s', (z, want) => expect(zoomOut(z)).toBe(want))

  it('goes back to the default zoom from nonsense', () => {
    expect(zoomIn(Number.NaN)).toBe(1)
    expect(zoomOut(Number.POSITIVE_INFINITY)).toBe(1)
  })

  it('tells when a button would do nothing', () => {
    expect([canZoomIn(2), canZoomIn(4), canZoomIn(5)]).toEqual([true, false, false])
    expect([canZoomOut(1), canZoomOut(0.5)]).toEqual([true, false])
  })

  it('walks the whole range from the default', () => {
    const ins: number[] = []
    let z: number = MAP.zoom
    while (canZoomIn(z)) ins.push((z = zoomIn(z)))
    expect(ins).toEqual([2, 4])
    const outs: number[] = []
    while (canZoomOut(z)) outs.push((z = zoomOut(z)))
    expect(outs).toEqual([2, 1, 0.5])
  })
})

describe('coordinates', () => {
  it.each([
    ['45.9016', 45.9016],
    [' -1.5 ', -1.5],
    ['6,12', 6.12],
    ['+6.', 6],
    ['.5', 0.5],
    [7.25, 7.25],
    ['', null],
    ['  ', null],
    ['nord', null],
    ['1.2.3', null],
    ['1e3', null],
    [Number.NaN, null],
    [null, null],
    [undefined, null],
  ])('parseCoordinate(%j) = %s', (value, want) => expect(parseCoordinate(value as string)).toBe(want))

  it('reads shops as latitude then longitude and gives [lon, lat]', () => {
    expect(shopLonLat({ latitude: '45.9009', longitude: '6.1265' })).toEqual([6.1265, 45.9009])
  })

  it.each([
    [{ latitude: '', longitude: '6.1' }],
    [{ latitude: '45.9', longitude: '' }],
    [{ latitude: '0', longitude: '0' }],
    [{ latitude: '95', longitude: '6' }],
    [{ latitude: '45', longitude: '190' }],
    [{}],
  ])('hides a shop without usable coordinates: %j', (shop) => expect(shopLonLat(shop)).toBeNull())

  it('reads cities as longitude then latitude', () => {
    expect(cityLonLat({ longitudedeg: '6.12565', latitudedeg: '45.90878' })).toEqual([6.12565, 45.90878])
    expect(cityLonLat({ longitudedeg: '-4.48', latitudedeg: '48.39' })).toEqual([-4.48, 48.39])
  })

  it('repairs swapped city coordinates and drops 0/0 and nonsense', () => {
    expect(cityLonLat({ longitudedeg: '45.90878', latitudedeg: '6.12565' })).toEqual([6.12565, 45.90878])
    expect(cityLonLat({ longitudedeg: '0', latitudedeg: '0' })).toBeNull()
    expect(cityLonLat({ longitudedeg: '120', latitudedeg: '-30' })).toBeNull()
    expect(cityLonLat({ longitudedeg: '', latitudedeg: '45' })).toBeNull()
  })

  it('gives every committed city a position in France', () => {
    for (const c of cities as City[]) {
      const p = cityLonLat(c)
      expect(p, c.nomreel).not.toBeNull()
      expect(p).toEqual([Number(c.longitudedeg), Number(c.latitudedeg)])
    }
  })
})

describe('postal codes and departments', () => {
  it.each([
    [1000, '01000'],
    [74200, '74200'],
    ['74000-74370-74600', '74000'],
    ['6000-6100', '06000'],
    ['13001 à 13016', '13001'],
    ['', ''],
    [0, ''],
    [null, ''],
  ])('postalCode(%j) = %j', (code, want) => expect(postalCode(code as string)).toBe(want))

  it.each([
    [1, '01'],
    [74, '74'],
    ['2a', '2A'],
    ['2B', '2B'],
  ])('departmentCode(%j) = %j', (d, want) => expect(departmentCode(d)).toBe(want))
})

const city = (id: string, departement: number | string, population2012: number, lon = '6.1', lat = '45.9'): City => ({
  id,
  departement,
  slug: id,
  nomreel: `Ville ${id}`,
  codepostal: 74000,
  population2012,
  longitudedeg: lon,
  latitudedeg: lat,
})

describe('topCities', () => {
  it('keeps the 3 most populous per department, departments in code order', () => {
    const list = [
      city('a1', 74, 100),
      city('a2', 74, 400),
      city('a3', 74, 300),
      city('a4', 74, 200),
      city('b1', 1, 50, '5.2', '46.2'),
      city('c1', '2A', 70, '8.7', '41.9'),
      city('c2', '2A', 90, '8.9', '42.1'),
    ]
    expect(topCities(list).map((c) => [c.department, c.id])).toEqual([
      ['01', 'b1'],
      ['2A', 'c2'],
      ['2A', 'c1'],
      ['74', 'a2'],
      ['74', 'a3'],
      ['74', 'a4'],
    ])
  })

  it('skips cities without coordinates so the next one shows', () => {
    const list = [
      city('a1', 74, 500, '0', '0'),
      city('a2', 74, 400),
      city('a3', 74, 300),
      city('a4', 74, 200),
      city('a5', 74, 100),
    ]
    expect(topCities(list).map((c) => c.id)).toEqual(['a2', 'a3', 'a4'])
  })

  it('keeps the reference order on ties and honours another limit', () => {
    const list = [city('x', 73, 10), city('y', 73, 10), city('z', 73, 10)]
    expect(topCities(list, 2).map((c) => c.id)).toEqual(['x', 'y'])
    expect(topCities(list, 0)).toEqual([])
  })

  it('shapes the committed reference: at most 3 per department, Annecy first in 74', () => {
    const placed = topCities(cities as City[])
    const counts = new Map<string, number>()
    for (const c of placed) counts.set(c.department, (counts.get(c.department) ?? 0) + 1)
    expect(Math.max(...counts.values())).toBe(3)
    expect(counts.size).toBe(96)
    expect(placed.filter((c) => c.department === '74').map((c) => c.name)).toEqual([
      'Annecy',
      'Thonon-les-Bains',
      'Annemasse',
    ])
    expect(placed.find((c) => c.name === 'Annecy')?.postalCode).toBe('74000')
  })
})

describe('projection', () => {
  it('puts the centre in the middle and scales with the zoom', () => {
    const p = makeProjection(MAP.center, 1, 800, 600)
    const [x, y] = p(MAP.center)!
    expect(x).toBeCloseTo(400, 6)
    expect(y).toBeCloseTo(300, 6)
    expect(p.scale()).toBe(20000)
    expect(makeProjection(MAP.center, 0.5, 800, 600).scale()).toBe(10000)
    // East is right, north is up.
    const [ex] = p([6.2, 45.9016])!
    const [, ny] = p([6.1213, 46])!
    expect(ex).toBeGreaterThan(400)
    expect(ny).toBeLessThan(300)
  })

  it('moves the centre against the drag', () => {
    const p = makeProjection(MAP.center, 1, 800, 600)
    const same = draggedCenter(p, 0, 0)!
    expect(same[0]).toBeCloseTo(MAP.center[0], 9)
    expect(same[1]).toBeCloseTo(MAP.center[1], 9)
    const [lon, lat] = draggedCenter(p, 100, -50)! // dragged right and up
    expect(lon).toBeLessThan(MAP.center[0])
    expect(lat).toBeLessThan(MAP.center[1])
    // Where the new centre was drawn is 100 px left of and 50 px below the middle.
    const [x, y] = p([lon, lat])!
    expect(x).toBeCloseTo(300, 6)
    expect(y).toBeCloseTo(350, 6)
  })
})

describe('where the map of shops looks first', () => {
  it('is the default centre for a viewer without a place of its own', () => {
    expect(startCenter(null)).toEqual(MAP.center)
    expect(startCenter([6.1265, 45.9009])).toEqual([6.1265, 45.9009])
  })

  // Each overseas department's chef-lieu, as the place reference has it.
  it.each(OVERSEAS.map((p) => [`${p.name} (${p.department})`, [p.longitude, p.latitude] as [number, number]]))(
    'puts %s in the middle of a phone’s view and of the area asked for',
    (_, place) => {
      for (const zoom of [MAP.minZoom, MAP.zoom, MAP.maxZoom]) {
        const p = makeProjection(startCenter(place), zoom, 390, 440)
        const [x, y] = p(place)!
        expect(x).toBeCloseTo(195, 6)
        expect(y).toBeCloseTo(220, 6)
        // North is up and east is right there too, south of the equator as well.
        expect(p([place[0], place[1] + 0.1])![1]).toBeLessThan(220)
        expect(p([place[0] + 0.1, place[1]])![0]).toBeGreaterThan(195)
        // The area the map asks the server for (with its 80 px around) holds the place, and not much more.
        const box = visibleBox(p, 390, 440, 80)!
        expect(box.south).toBeLessThan(place[1])
        expect(box.north).toBeGreaterThan(place[1])
        expect(box.west).toBeLessThan(place[0])
        expect(box.east).toBeGreaterThan(place[0])
        expect(box.north - box.south).toBeLessThan(4 / zoom)
        expect(box.east - box.west).toBeLessThan(4 / zoom)
      }
    },
  )
})

describe('boxesOverlap', () => {
  const a = { south: 45, west: 5, north: 46, east: 7 }
  it.each([
    { name: 'a box inside', b: { south: 45.2, west: 5.5, north: 45.8, east: 6 }, want: true },
    { name: 'a box across an edge', b: { south: 45.5, west: 6.5, north: 47, east: 8 }, want: true },
    { name: 'a box touching an edge', b: { south: 46, west: 6, north: 47, east: 6.5 }, want: true },
    { name: 'a box east of it', b: { south: 45, west: 7.1, north: 46, east: 8 }, want: false },
    { name: 'a box north of it', b: { south: 46.1, west: 5, north: 47, east: 7 }, want: false },
    { name: 'a box around it', b: { south: 40, west: 0, north: 50, east: 10 }, want: true },
  ])('is $want for $name', ({ b, want }) => {
    expect(boxesOverlap(a, b)).toBe(want)
    expect(boxesOverlap(b, a)).toBe(want)
  })
})
