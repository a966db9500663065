import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  FileInput,
  Image,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { useSnapshot } from 'valtio'
import { Link, useParams } from 'wouter'
import { productOf, typed } from '../deliveries/products'
import { canReceive, noteNumber } from '../deliveries/model'
import { capitalizeFirst, dayOf, formatLongDay } from '../format'
import { useOffline } from '../offline/useOffline'
import { photoForUpload } from '../reception/photo'
import { type LineInput, REASON_LABELS, type Reason, receivedText, receptionBody } from '../reception/model'
import { newKey, queueState } from '../reception/queue'
import { QueueStatus } from '../reception/QueueStatus'
import { SignaturePad } from '../reception/SignaturePad'
import { useIsLoaded, useOrders, useProducers, useProducts, useUser } from '../store/hooks'
import { may } from '../team/roles'
import { ensureOrder } from '../store/lists'
import { useClaimWindow } from '../store/deliveries'
import { drainReceptions, receive, refreshReceptions } from '../store/reception'
import type { Delivery, Product } from '../types'
import { unitLabel } from '../units'

/** PRODUCT §16 "Reception": the screen's title. */
export const RECEPTION_TITLE = 'Réception de la livraison'

/** What a member whose role may not receive deliveries reads instead of the form (issue 41). */
export const RECEPTION_NOT_YOURS =
  'Votre rôle dans cette organisation ne permet pas de réceptionner les livraisons : demandez-le à la personne chargée de la réception ou à un propriétaire de l’équipe.'

const quantityText = (value: number, unit: string) => `${typed(value)} ${unitLabel(unit)}`

function initialLines(d: Delivery, products: ReadonlyMap<string, Product>): LineInput[] {
  return d.deliveryLines.map((l) => ({
    _id: l._id,
    expected: l.quantitySent,
    unit: productOf(products, l.product).unit,
    ok: true,
    received: typed(l.quantitySent),
    reason: '',
    comment: '',
  }))
}

/**
 * The shop's reception on its phone (route
 * /dis/deliveries/reception/:orderId/:deliveryId): each line ticked as
 * received or its quantity typed with the reason and a photo, the name of
 * who receives and a drawn signature. The reception is kept on the phone and
 * sent at once, or when the network returns (src/reception/queue.ts).
 */
export function ShopReception() {
  const { orderId = '', deliveryId = '' } = useParams<{ orderId: string; deliveryId: string }>()
  const orders = useOrders()
  const products = useProducts()
  const producers = useProducers()
  const userLoaded = useIsLoaded()
  // Whether the orders that may hold the delivery are read: those of the
  // weeks around today, then, when the order is not among them, the year.
  const [ordersRead, setOrdersRead] = useState(false)
  const loaded = userLoaded && ordersRead
  const q = useSnapshot(queueState)
  const productMap = useMemo(() => new Map(products.map((p) => [p._id, p as Product])), [products])
  const order = orders.find((o) => o._id === orderId)
  const delivery = order?.deliveries.find((d) => d._id === deliveryId) as Delivery | undefined
  const producer = producers.find((p) => p._id === order?.producer)?.name ?? ''
  const claimWindow = useClaimWindow()
  const member = useUser()?.role

  const [lines, setLines] = useState<LineInput[] | null>(null)
  const [receivedBy, setReceivedBy] = useState('')
  const [signature, setSignature] = useState<string | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [outcome, setOutcome] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useOffline()

  useEffect(() => {
    void refreshReceptions().then(drainReceptions)
  }, [])
  useEffect(() => {
    if (!userLoaded) return
    let live = true
    void ensureOrder(orderId, dayOf(new Date())).then(() => {
      if (live) setOrdersRead(true)
    })
    return () => {
      live = false
    }
  }, [orderId, userLoaded])
  useEffect(() => {
    if (delivery && lines === null) setLines(initialLines(delivery, productMap))
  }, [delivery, lines, productMap])

  const waiting = q.waiting.find((r) => r.deliveryId === deliveryId)
  const setLine = (i: number, change: Partial<LineInput>) =>
    setLines((ls) => (ls ? ls.map((l, j) => (j === i ? { ...l, ...change } : l)) : ls))

  async function submit() {
    if (!lines) return
    const made = receptionBody(newKey(), receivedBy, lines, signature, new Date())
    if ('errors' in made) {
      setErrors(made.errors)
      return
    }
    setErrors({})
    setBusy(true)
    try {
      const result = await receive(orderId, deliveryId, made.body)
      setOutcome(
        result === 'sent'
          ? 'Réception envoyée.'
          : result === 'queued'
            ? 'Réception enregistrée sur ce téléphone : elle sera envoyée dès le retour du réseau.'
            : null,
      )
    } finally {
      setBusy(false)
    }
  }

  const header = (
    <Stack gap={4}>
      <Title order={1}>{RECEPTION_TITLE}</Title>
      {delivery ? (
        <Text size="lg" fw={600}>
          {noteNumber(delivery.chrono)} — {producer} — {capitalizeFirst(formatLongDay(delivery.date))}
        </Text>
      ) : null}
      <Anchor component={Link} href="/dis/deliveries">
        Toutes mes livraisons
      </Anchor>
    </Stack>
  )

  let body: ReactNode
  if (!delivery) {
    body = loaded ? (
      <Alert color="red" title="Livraison introuvable">
        Cette livraison n'est pas l'une des vôtres, ou elle n'a pas encore été chargée sur ce téléphone.
      </Alert>
    ) : (
      <Loader size="sm" aria-label="Chargement" />
    )
  } else if (!delivery.receivedAt && !may(member, 'receive-delivery')) {
    // Receiving is the owners' and receivers' (issue 41): another role reads the delivery from its screen.
    body = <Alert color="orange">{RECEPTION_NOT_YOURS}</Alert>
  } else if (delivery.receivedAt) {
    body = (
      <Alert color="green" role="status" title={receivedText(delivery.receivedAt, delivery.receivedBy ?? '')}>
        {outcome ?? 'La réception de cette livraison est enregistrée.'}
      </Alert>
    )
  } else if (waiting && !waiting.refused) {
    body = (
      <Alert color="yellow" role="status" title="Réception enregistrée sur ce téléphone">
        {outcome ?? 'Elle sera envoyée dès le retour du réseau.'}
      </Alert>
    )
  } else if (!canReceive(delivery, 'distributor', new Date(), claimWindow)) {
    body = (
      <Alert color="gray" title="Réception impossible">
        {delivery.status === 'cancelled'
          ? 'Cette livraison a été annulée : elle ne peut pas être réceptionnée.'
          : 'Le délai de réception est dépassé : une livraison se réceptionne au plus tard deux jours ouvrés après sa date.'}
      </Alert>
    )
  } else if (lines) {
    body = (
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <Stack gap="md">
          {lines.map((l, i) => {
            const line = delivery.deliveryLines[i]
            const { name } = productOf(productMap, line.product)
            return (
              <Paper key={l._id} withBorder p="sm">
                <Stack gap="xs">
                  <Checkbox
                    size="md"
                    checked={l.ok}
                    onChange={(e) => setLine(i, { ok: e.currentTarget.checked })}
                    label={`Reçu — ${name} (${quantityText(l.expected, l.unit)})`}
                  />
                  {!l.ok ? (
                    <>
                      <TextInput
                        label={`Quantité reçue — ${name} (${unitLabel(l.unit)})`}
                        inputMode="decimal"
                        value={l.received}
                        onChange={(e) => setLine(i, { received: e.currentTarget.value })}
                        error={errors[`lines.${i}.received`]}
                      />
                      <Stack gap={2}>
                        <Text size="sm" fw={500} id={`reason-${i}`}>
                          Motif — {name}
                        </Text>
                        <SegmentedControl
                          aria-labelledby={`reason-${i}`}
                          value={l.reason}
                          onChange={(v) => setLine(i, { reason: v as Reason })}
                          data={[
                            { value: 'quantity', label: REASON_LABELS.quantity },
                            { value: 'quality', label: REASON_LABELS.quality },
                          ]}
                        />
                        {errors[`lines.${i}.reason`] ? (
                          <Text size="sm" c="red">
                            {errors[`lines.${i}.reason`]}
                          </Text>
                        ) : null}
                      </Stack>
                      <TextInput
                        label={`Commentaire — ${name}`}
                        maxLength={500}
                        value={l.comment}
                        onChange={(e) => setLine(i, { comment: e.currentTarget.value })}
                      />
                      <FileInput
                        label={`Photo du problème — ${name}`}
                        placeholder="Prendre ou choisir une photo"
                        accept="image/*"
                        capture="environment"
                        clearable
                        error={errors[`lines.${i}.photo`]}
                        onChange={(file) => {
                          setErrors((e) => ({ ...e, [`lines.${i}.photo`]: '' }))
                          if (!file) setLine(i, { photo: undefined })
                          else
                            void photoForUpload(file)
                              .then((photo) => setLine(i, { photo }))
                              .catch((err: Error) => setErrors((e) => ({ ...e, [`lines.${i}.photo`]: err.message })))
                        }}
                      />
                      {l.photo ? (
                        <Image
                          src={`data:image/jpeg;base64,${l.photo}`}
                          alt={`Photo du problème — ${name}`}
                          maw={240}
                          radius="sm"
                        />
                      ) : null}
                    </>
                  ) : null}
                </Stack>
              </Paper>
            )
          })}
          <TextInput
            label="Reçu par"
            description="Le nom de la personne qui réceptionne"
            autoComplete="name"
            value={receivedBy}
            onChange={(e) => setReceivedBy(e.currentTarget.value)}
            error={errors.receivedBy}
            withAsterisk
          />
          <SignaturePad onChange={setSignature} />
          <Button type="submit" size="md" loading={busy}>
            Valider la réception
          </Button>
        </Stack>
      </form>
    )
  }

  return (
    <Stack p="md" gap="md" maw={640}>
      {header}
      <QueueStatus />
      {body}
    </Stack>
  )
}
