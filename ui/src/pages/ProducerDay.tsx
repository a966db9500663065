import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core'
import { useEffect, useRef, useState } from 'react'
import { Link, useParams } from 'wouter'
import { capitalizeFirst, formatLongDay, formatNumber } from '../format'
import { paths } from '../routing'
import { useOffline } from '../offline/useOffline'
import { type DeliveryDay, loadDay, moveStop, saveRound, useDeliveryDay } from '../store/dayplan'
import { useUser } from '../store/hooks'
import { may } from '../team/roles'
import { UNITS, isWholeUnit, unitLabel } from '../units'

/** PRODUCT §16 "The farmer's day": the screen's title. */
export const DAY_TITLE = 'Ma journée de livraison'

/** The three sections of the screen. */
export const DAY_TABS = { pick: 'Cueillette', packing: 'Colisage', round: 'Tournée' } as const

/** A quantity as the sheets write it: "12,5 kg", "1 pièce", "20 pièces". */
export function dayQuantity(value: number, unit: string): string {
  if (!isWholeUnit(unit)) return `${formatNumber(value)} ${unitLabel(unit)}`
  // As the printed sheets (core/documents DayQuantity): the singular for one only.
  return `${formatNumber(value, 0)} ${value === 1 ? UNITS[unit].singular : UNITS[unit].plural}`
}

/** A distance: "12,3 km". */
export const km = (value: number) => `${formatNumber(value, 1)} km`

/** The day before or after `date` (YYYY-MM-DD). */
export function shiftDay(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

const validDate = (date: string) => /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}T12:00:00Z`))

/**
 * The producer's delivery day (route /prod/deliveries/day/:date): the pick
 * sheet, the packing sheets and the round, in three tabs; the round's stops
 * move up and down by buttons (touch and keyboard), the order kept by the
 * daemon; "Imprimer" opens the PDF of the pick and packing sheets.
 */
export function ProducerDay() {
  const { date = '' } = useParams<{ date: string }>()
  const s = useDeliveryDay()
  useOffline()
  useEffect(() => {
    if (validDate(date)) void loadDay(date)
  }, [date])
  const day = s.date === date ? (s.day as DeliveryDay | null) : null
  const heading = validDate(date) ? capitalizeFirst(formatLongDay(date)) : date

  return (
    <Stack p="md" gap="md" maw={900}>
      <Stack gap={4}>
        <Title order={1}>{DAY_TITLE}</Title>
        <Text size="lg" fw={600}>
          {heading}
        </Text>
      </Stack>
      <Group gap="sm" wrap="wrap">
        <Anchor component={Link} href="/prod/deliveries">
          Toutes mes livraisons
        </Anchor>
        {validDate(date) ? (
          <>
            <Anchor component={Link} href={paths.prodDay(shiftDay(date, -1))}>
              <span aria-hidden="true">← </span>Veille
            </Anchor>
            <Anchor component={Link} href={paths.prodDay(shiftDay(date, 1))}>
              Lendemain<span aria-hidden="true"> →</span>
            </Anchor>
          </>
        ) : null}
      </Group>
      {!validDate(date) ? (
        <Alert color="red" title="Date invalide">
          Date invalide : attendu AAAA-MM-JJ, par exemple 2026-11-24.
        </Alert>
      ) : s.status === 'error' && s.date === date ? (
        <Alert color="red" title="Journée indisponible">
          {s.error}
        </Alert>
      ) : !day ? (
        <Group gap="sm">
          <Loader size="sm" />
          <Text>Chargement de la journée…</Text>
        </Group>
      ) : day.round.stops.length === 0 ? (
        <Text>Aucune livraison ce jour-là.</Text>
      ) : (
        <DayTabs day={day} date={date} saving={s.saving} />
      )}
    </Stack>
  )
}

function DayTabs({ day, date, saving }: { day: DeliveryDay; date: string; saving: boolean }) {
  const [tab, setTab] = useState<string | null>('pick')
  return (
    <Stack gap="sm">
      <Button
        component="a"
        href={`/print/day/${encodeURIComponent(date)}`}
        download
        variant="light"
        w="fit-content"
        size="md"
      >
        Imprimer (PDF)
      </Button>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List grow>
          <Tabs.Tab value="pick">{DAY_TABS.pick}</Tabs.Tab>
          <Tabs.Tab value="packing">{DAY_TABS.packing}</Tabs.Tab>
          <Tabs.Tab value="round">{DAY_TABS.round}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="pick" pt="md">
          <PickSheet day={day} />
        </Tabs.Panel>
        <Tabs.Panel value="packing" pt="md">
          <PackingSheets day={day} />
        </Tabs.Panel>
        <Tabs.Panel value="round" pt="md">
          <Round day={day} saving={saving} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}

function PickSheet({ day }: { day: DeliveryDay }) {
  return (
    <Stack
      gap="sm"
      component="ul"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
      aria-label="Produits à cueillir"
    >
      {day.pick.map((p) => (
        <Paper key={p.product} withBorder p="sm" component="li">
          <Group justify="space-between" wrap="nowrap" align="baseline">
            <Text fw={700} size="lg">
              {p.name}
            </Text>
            <Text fw={700} size="lg" style={{ whiteSpace: 'nowrap' }}>
              {dayQuantity(p.total, p.unit)}
            </Text>
          </Group>
          <Stack gap={2} mt={4}>
            {p.shops.map((s) => (
              <Group key={s.shopId} justify="space-between" wrap="nowrap" pl="md">
                <Text>{s.shop}</Text>
                <Text style={{ whiteSpace: 'nowrap' }}>{dayQuantity(s.quantity, p.unit)}</Text>
              </Group>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  )
}

function PackingSheets({ day }: { day: DeliveryDay }) {
  return (
    <Stack gap="md">
      {day.packing.map((p, i) => (
        <Paper key={p.shopId} withBorder p="sm" component="section" aria-labelledby={`packing-${p.shopId}`}>
          <Title order={2} size="h3" id={`packing-${p.shopId}`}>
            {i + 1}. {p.shop}
          </Title>
          <Text size="sm">Bon de livraison : {p.notes.map((n) => n.number).join(', ')}</Text>
          <Text size="sm">{p.address.length ? p.address.join(', ') : 'Adresse non renseignée'}</Text>
          {p.tel ? (
            <Anchor href={`tel:${p.tel.replace(/\s/g, '')}`} size="sm">
              Tél. : {p.tel}
            </Anchor>
          ) : null}
          {p.hours ? <Text size="sm">Horaires : {p.hours}</Text> : null}
          {p.instructions ? (
            <Text size="sm" fw={600} style={{ whiteSpace: 'pre-line' }}>
              Consignes : {p.instructions}
            </Text>
          ) : null}
          <Table mt="xs" fz="md" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Produit</Table.Th>
                <Table.Th ta="right">Quantité</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.lines.map((l) => (
                <Table.Tr key={l.product}>
                  <Table.Td>{l.name}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {dayQuantity(l.quantity, l.unit)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {p.lines.length === 0 ? <Text c="dimmed">Rien à livrer : les quantités de ce bon sont à zéro.</Text> : null}
        </Paper>
      ))}
    </Stack>
  )
}

function Round({ day, saving }: { day: DeliveryDay; saving: boolean }) {
  const r = day.round
  // Ordering the round is the owners' and delivery's (issue 41): another role reads it.
  const mayOrder = may(useUser()?.role, 'set-delivery-round')
  const buttons = useRef(new Map<string, HTMLButtonElement | null>())
  const [announce, setAnnounce] = useState('')
  const move = async (index: number, delta: -1 | 1) => {
    const stop = r.stops[index]
    if (!(await moveStop(index, delta))) return
    const to = index + delta
    setAnnounce(`${stop.shop} : arrêt ${to + 1} sur ${r.stops.length}`)
    // Keep the focus on the stop moved: on the same button while it can
    // still move that way, else on the other one.
    const first = to === 0 ? 'down' : to === r.stops.length - 1 ? 'up' : delta < 0 ? 'up' : 'down'
    requestAnimationFrame(() => buttons.current.get(`${stop.shopId}:${first}`)?.focus())
  }
  return (
    <Stack gap="sm">
      <Text fw={600}>
        {r.stops.length} arrêts · {km(r.totalKm)}
        {r.complete ? '' : ' (hors arrêts sans position)'}
      </Text>
      <Text size="sm" c="dimmed">
        Distances à vol d'oiseau multipliées par {formatNumber(r.roadFactor)} pour approcher la route, retour à la ferme
        compris.
      </Text>
      <Group gap="sm" justify="space-between">
        {r.manual ? (
          <>
            <Badge variant="light">Ordre choisi par vous</Badge>
            {mayOrder ? (
              <Button variant="subtle" size="compact-sm" onClick={() => void saveRound([])} disabled={saving}>
                Revenir à l'ordre proposé
              </Button>
            ) : null}
          </>
        ) : (
          <Badge variant="light" color="gray">
            Ordre proposé, le plus court trouvé
          </Badge>
        )}
      </Group>
      <Text size="sm">
        Départ : {r.farm.address.length ? r.farm.address.join(', ') : 'adresse de la ferme non renseignée'}
      </Text>
      <div aria-live="polite" style={visuallyHidden}>
        {announce}
      </div>
      <Stack
        gap="sm"
        component="ol"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Arrêts de la tournée"
      >
        {r.stops.map((s, i) => (
          <Paper key={s.shopId} withBorder p="sm" component="li" data-testid="stop">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={700} size="lg">
                  {i + 1}. {s.shop}
                </Text>
                <Text size="sm">{s.address.length ? s.address.join(', ') : 'Adresse non renseignée'}</Text>
                {s.hours ? <Text size="sm">Horaires : {s.hours}</Text> : null}
                <Text size="sm" c="dimmed">
                  {s.legKm !== undefined
                    ? `${km(s.legKm)} depuis ${i === 0 ? 'la ferme' : "l'arrêt précédent"}`
                    : 'Distance inconnue : pas de position'}
                </Text>
                {s.mapUrl ? (
                  <Anchor href={s.mapUrl} size="sm" aria-label={`Ouvrir dans l'application de cartes : ${s.shop}`}>
                    Ouvrir dans l'application de cartes
                  </Anchor>
                ) : null}
              </Stack>
              {mayOrder ? (
                <Stack gap={6}>
                  <Button
                    size="md"
                    variant="default"
                    ref={(el) => void buttons.current.set(`${s.shopId}:up`, el)}
                    disabled={i === 0}
                    onClick={() => void move(i, -1)}
                    aria-label={`Monter ${s.shop}`}
                  >
                    Monter
                  </Button>
                  <Button
                    size="md"
                    variant="default"
                    ref={(el) => void buttons.current.set(`${s.shopId}:down`, el)}
                    disabled={i === r.stops.length - 1}
                    onClick={() => void move(i, 1)}
                    aria-label={`Descendre ${s.shop}`}
                  >
                    Descendre
                  </Button>
                </Stack>
              ) : null}
            </Group>
          </Paper>
        ))}
      </Stack>
      {r.returnKm !== undefined ? <Text size="sm">Retour à la ferme : {km(r.returnKm)}</Text> : null}
    </Stack>
  )
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const
