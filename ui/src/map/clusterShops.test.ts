import { describe, expect, it } from 'vitest'
import { mapQuery } from '../store/shopmap'
import type { MapCluster, MapShop } from '../types'
import { CLUSTER_AREA_MIN, clusterArea, clusterKey, clusterShops } from './clusterShops'

const cluster = (box: Pick<MapCluster, 'south' | 'west' | 'north' | 'east'>, count = 2): MapCluster => ({
  count,
  latitude: (box.south + box.north) / 2,
  longitude: (box.west + box.east) / 2,
  ...box,
})

const shop = (id: string, latitude: number, longitude: number): MapShop => ({
  _id: id,
  name: id,
  email: '',
  latitude,
  longitude,
  score: 0,
})

describe('clusterArea', () => {
  it('asks for the box of the cluster’s shops at the largest zoom', () => {
    expect(clusterArea(cluster({ south: 45.1, west: 5.7, north: 45.12, east: 5.73 }))).toEqual({
      south: 45.1,
      west: 5.7,
      north: 45.12,
      east: 5.73,
      zoom: 4,
    })
  })

  it('opens the box of shops placed on one point, which the server would refuse as empty', () => {
    // Mende's commune: every shop of its postal code on the same point.
    const area = clusterArea(cluster({ south: 44.5181, west: 3.5, north: 44.5181, east: 3.5 }))
    expect(area.north - area.south).toBeCloseTo(CLUSTER_AREA_MIN, 10)
    expect(area.east - area.west).toBeCloseTo(CLUSTER_AREA_MIN, 10)
    expect(area.south).toBeLessThan(44.5181)
    expect(area.north).toBeGreaterThan(44.5181)
    // As sent (rounded outward to 1e-4), south still under north and west under east.
    const q = new URLSearchParams(mapQuery(area))
    expect(Number(q.get('south'))).toBeLessThan(Number(q.get('north')))
    expect(Number(q.get('west'))).toBeLessThan(Number(q.get('east')))
  })
})

describe('clusterShops', () => {
  it('keeps the shops within the box of the cluster’s shops, its edges included', () => {
    const c = cluster({ south: 45.1, west: 5.7, north: 45.12, east: 5.73 })
    const shops = [
      shop('sw', 45.1, 5.7),
      shop('ne', 45.12, 5.73),
      shop('mid', 45.11, 5.71),
      shop('north', 45.12001, 5.71),
      shop('west', 45.11, 5.69999),
    ]
    expect(clusterShops(c, shops).map((s) => s._id)).toEqual(['sw', 'ne', 'mid'])
  })

  it('keeps every shop of a cluster on one point, and none a few metres away', () => {
    const c = cluster({ south: 44.5181, west: 3.5, north: 44.5181, east: 3.5 })
    expect(clusterShops(c, [shop('a', 44.5181, 3.5), shop('b', 44.5181, 3.50001)]).map((s) => s._id)).toEqual(['a'])
  })
})

describe('clusterKey', () => {
  it('names a cluster by its place', () => {
    expect(clusterKey(cluster({ south: 1, west: 2, north: 3, east: 4 }))).toBe('2,3')
  })
})
