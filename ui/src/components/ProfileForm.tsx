import {
  Alert,
  Anchor,
  Autocomplete,
  Button,
  CloseButton,
  Fieldset,
  Grid,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { type FormEvent, type MouseEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { example } from './example'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { type LonLat, shopLonLat } from '../map/coordinates'
import { type AddressPlace, addressPlace, townOf } from '../map/places'
import { normalizeText } from '../map/text'
import { usePlaceSearch } from '../map/usePlaceSearch'
import { PositionPicker, coordinateText } from '../map/PositionPicker'
import { SHOP_INVISIBLE, isOnMap, profileFieldId } from '../onboarding/checklist'
import { searchPlaces } from '../store/places'
import { updateProfile } from '../store/session'
import type {
  IdentifierIssue,
  NotificationPref,
  PaymentTerms,
  ProfileField,
  ProfileUpdate,
  UserType,
  VatRegime,
} from '../types'
import { type AddressParts, addressErrors, joinAddress, splitAddress } from '../validation/address'
import {
  PROFILE_FIELDS,
  type ProfileFormField,
  type ProfileValues,
  changesBank,
  validateProfile,
} from '../validation/profile'
import { ChangeEmailForm } from './ChangeEmailForm'
import { ChangePasswordForm } from './ChangePasswordForm'
import { CutoffReminderSwitch } from './CutoffReminderSwitch'
import { CloseAccountForm } from './CloseAccountForm'
import { DeliveryDaysPicker } from './DeliveryDaysPicker'
import { IdentifierNotice } from './IdentifierNotice'
import { MyDataPanel } from './MyDataPanel'
import { EInvoicingForm } from '../einvoicing/EInvoicingForm'
import { NotificationSettings } from './NotificationSettings'
import { PaymentTermsForm } from './PaymentTermsForm'
import { VatRegimeForm } from './VatRegimeForm'
import { useUser } from '../store/hooks'
import { PersonNameForm } from '../team/PersonNameForm'
import { may } from '../team/roles'
import { ROUTES } from '../routing'
import { de } from '../grammar'

/** Labels of the profile fields (every input is labelled; tests find fields by label). */
export const PROFILE_LABELS: Record<ProfileField, string> = {
  name: "Nom de l'entreprise",
  tel: 'Téléphone',
  addressLine1: 'Adresse',
  addressLine2: "Complément d'adresse",
  addressLine3: 'Code postal et ville',
  latitude: 'Latitude',
  longitude: 'Longitude',
  billingAddressLine1: 'Adresse de facturation',
  billingAddressLine2: "Complément d'adresse de facturation",
  billingAddressLine3: 'Code postal et ville de facturation',
  openingHours: 'Horaires de réception des livraisons',
  deliveryInstructions: 'Consignes de livraison',
  legal: 'Forme juridique',
  capital: 'Capital social (€)',
  siret: 'SIRET',
  ape: 'Code APE',
  tvaintracom: 'N° de TVA intracommunautaire',
  certification: 'Certification',
  iban: 'IBAN',
  bic: 'BIC',
}

/** Labels of the postal code and town, asked apart and stored together in `addressLine3`. */
export const ADDRESS_LABELS = { postcode: 'Code postal', town: 'Ville' } as const

/** Examples in empty fields, told as such ("ex. : …", components/example.ts). */
export const PLACEHOLDERS: Partial<Record<ProfileField, string>> = {
  tel: example('06 12 34 56 78'),
  addressLine1: example('12 rue Sommeiller'),
  latitude: example('45.9016'),
  longitude: example('6.1213'),
  siret: example('732 829 320 00074'),
  ape: example('0113Z'),
  tvaintracom: example('FR12345678901'),
  iban: example('FR76 3000 6000 0112 3456 7890 189'),
  bic: example('BNPAFRPPXXX'),
  openingHours: example('mardi à samedi, 7h30–11h'),
  deliveryInstructions: example('livrer par la cour, sonner à la réserve'),
}

/** Under the IBAN and BIC when either changed (PRODUCT §13 "Changing the bank details"). */
export const BANK_PASSWORD = {
  label: 'Mot de passe actuel',
  description:
    'Pour modifier vos coordonnées bancaires, saisissez votre mot de passe actuel. Un email de confirmation sera envoyé à votre adresse de connexion.',
} as const

/**
 * Under the shop's billing fields: its accountant is a member of the team, no address of the profile (PRODUCT §13
 * "Teams"); an owner is offered the way to the team's invitations.
 */
export const ACCOUNTANT_NOTE = {
  text: "Les factures, les avoirs et les relances partent vers les propriétaires et les comptables de l'équipe, chacun à sa propre adresse. Pour que votre comptable les reçoive, invitez-le dans l'équipe avec le rôle Comptabilité.",
  invite: 'Inviter votre comptable',
} as const

/**
 * The user fields the form reads: strings per field, plus delivery days for
 * producers, and what the panels under the form show (login email and the
 * one pending, notifications).
 */
export type ProfileSource = {
  type: UserType
  email?: string
  emailPending?: string
  notifications?: readonly Readonly<NotificationPref>[]
  defaultDeliveryDays?: readonly boolean[]
  paymentTerms?: PaymentTerms
  vatRegime?: VatRegime
  cutoffReminder?: boolean
  /** The SIRET or VAT number stored invalid (PRODUCT §5 "Identifiers"). */
  identifierIssues?: readonly Readonly<IdentifierIssue>[]
} & Partial<Record<ProfileField, string>>

/** The address lines a form stores: street, complement and the postal line. */
const ADDRESS_LINES: readonly ProfileField[] = ['addressLine1', 'addressLine2', 'addressLine3']

function initialValues(user: ProfileSource): ProfileValues {
  const values: ProfileValues = {}
  for (const field of PROFILE_FIELDS[user.type]) {
    if (!ADDRESS_LINES.includes(field)) values[field] = user[field] ?? ''
  }
  const address = splitAddress([user.addressLine1 ?? '', user.addressLine2 ?? '', user.addressLine3 ?? ''])
  values.addressLine1 = address.street
  values.addressLine2 = address.complement
  values.postcode = address.postcode
  values.town = address.town
  if (user.type === 'producer') values.defaultDeliveryDays = [...(user.defaultDeliveryDays ?? [])]
  return values
}

/** The address of form values. */
function addressPartsOf(values: ProfileValues): AddressParts {
  return {
    street: values.addressLine1 ?? '',
    complement: values.addressLine2 ?? '',
    postcode: values.postcode ?? '',
    town: values.town ?? '',
  }
}

/**
 * The changed fields, trimmed, as the body of `PUT /api/user`. A change of
 * the address (street, complement, postal code or town) sends its three
 * lines, the postal code and town together in `addressLine3`.
 */
export function profileChanges(type: UserType, initial: ProfileValues, values: ProfileValues): ProfileUpdate {
  const update: ProfileUpdate = {}
  for (const field of PROFILE_FIELDS[type]) {
    if (ADDRESS_LINES.includes(field)) continue
    const value = (values[field] ?? '').trim()
    if (value !== (initial[field] ?? '').trim()) update[field] = value
  }
  const before = joinAddress(addressPartsOf(initial))
  const after = joinAddress(addressPartsOf(values))
  if (after.some((line, i) => line !== before[i])) {
    update.addressLine1 = after[0]
    update.addressLine2 = after[1]
    update.addressLine3 = after[2]
  }
  if (type === 'producer') {
    const days = values.defaultDeliveryDays ?? []
    const before = initial.defaultDeliveryDays ?? []
    if (days.length !== before.length || days.some((d, i) => d !== before[i])) update.defaultDeliveryDays = days
  }
  if (changesBank(values, initial) && values.currentPassword) update.currentPassword = values.currentPassword
  return update
}

/** What the form says after placing the position from the address (`postcode`, `town` as typed). */
export function placeNote({ place, how }: AddressPlace, postcode: string, town: string): string {
  const refine = 'Cliquez sur la carte ou déplacez le repère pour'
  const name = place.city.name
  const code = postcode.replace(/\s/g, '')
  const typed = town.trim()
  // A commune without a point of its own is placed from its neighbours (PRODUCT §3).
  const approached = place.position !== 'own'
  switch (how) {
    case 'town':
      return approached
        ? `Position approchée ${de(name)}, d'après les communes voisines : ${refine} indiquer l'emplacement exact.`
        : `Position placée au centre ${de(name)} : ${refine} indiquer l'emplacement exact.`
    case 'postcode':
      return typed === '' || normalizeText(typed) === place.city.key
        ? `Position placée ${approached ? 'près' : 'au centre'} ${de(name)} (${code}) : ${refine} indiquer l'emplacement exact.`
        : `${typed} n'est pas une commune du ${code} : position placée sur ${name}, de même code postal. Vérifiez la ville ; ${refine} préciser la position.`
    default:
      return `Aucune commune n'a le code postal ${code} (code CEDEX ?) : position approchée sur ${name} (${place.postalCode}). ${refine} la préciser.`
  }
}

/** The query of the place search for an address: the postal code when complete, then the town. */
function addressQuery(postcode: string, town: string): string {
  const code = postcode.replace(/\s/g, '')
  return [/^\d{5}$/.test(code) ? code : '', town.trim()].filter(Boolean).join(' ')
}

/** The address a position was placed for, as compared: "74230|thones". */
function addressKey(postcode: string, town: string): string {
  return `${postcode.replace(/\s/g, '')}|${normalizeText(town)}`
}

/** How many places the address asks of the reference: every commune of most postal codes. */
const ADDRESS_LIMIT = 30

/** Fields of each part of the form, in order (PRODUCT §2 "Profile form"). */
const SECTIONS: { legend: string; fields: readonly ProfileField[]; roles?: readonly UserType[] }[] = [
  { legend: 'Entreprise', fields: ['name', 'tel'] },
  {
    legend: 'Facturation',
    fields: ['billingAddressLine1', 'billingAddressLine2', 'billingAddressLine3'],
    roles: ['distributor'],
  },
  // Shown to the producers on their packing sheets and round (PRODUCT §16 "The farmer's day").
  { legend: 'Livraisons', fields: ['openingHours', 'deliveryInstructions'], roles: ['distributor'] },
  { legend: 'Informations légales', fields: ['legal', 'capital', 'siret', 'ape', 'tvaintracom', 'certification'] },
  { legend: 'Coordonnées bancaires', fields: ['iban', 'bic'] },
]

/** Moves to a field of the form: scrolled into the middle of the screen, then focused. */
function focusField(field: ProfileFormField) {
  const element = document.getElementById(profileFieldId(field))
  if (!element) return
  element.scrollIntoView?.({ block: 'center', behavior: 'smooth' })
  element.focus({ preventScroll: true })
}

/**
 * "Informations de profil" (PRODUCT §2, §3, §5): per-role fields in parts —
 * the producer's delivery days, the company, the address with its postal
 * code and town placing the position on a small map, the shop's billing,
 * the legal details and the bank —; save enabled once a field was touched
 * and no field has an error. Remount it (key) to reload it from a new user.
 * `focus` names a field to scroll to and focus (the dashboard's first
 * steps); a new `focus.at` moves there again.
 */
/** What a member whose role may not change the organisation's profile reads above it (issue 41). */
export const PROFILE_READ_ONLY =
  'Seuls les propriétaires de l’équipe modifient les informations de l’organisation : vous pouvez les consulter.'

export function ProfileForm({
  user,
  onClose,
  focus,
}: {
  user: ProfileSource
  onClose: () => void
  focus?: { field: ProfileFormField; at: number } | null
}) {
  const type = user.type
  // The organisation's profile is its owners' (issue 41): another role reads it.
  const member = useUser()
  const editable = may(member?.role, 'update-user')
  const [, navigate] = useLocation()
  // The way to the team's invitations, for the accountant: the profile closes on the way.
  const goToTeam = (e: MouseEvent) => {
    e.preventDefault()
    onClose()
    navigate(ROUTES.team)
  }
  const [initial] = useState(() => initialValues(user))
  const validate = useCallback((values: ProfileValues) => validateProfile(values, type, initial), [type, initial])
  const form = useFormState<ProfileValues, ProfileFormField>(initial, validate, {
    showInitialErrors: true,
  })
  const submission = useSubmit()
  const [note, setNote] = useState<string | null>(null)
  // The address the position was last placed for: retyping it keeps a pin moved by hand.
  const placedFor = useRef<string | null>(addressKey(initial.postcode ?? '', initial.town ?? ''))
  // The address typed last, so that a late answer for an older one is left aside.
  const latestAddress = useRef('')
  // Changes of the position by hand (its fields, the map): a place found for
  // the address after the user set the position must not move it back.
  const handPlaced = useRef(0)

  useEffect(() => {
    if (!focus) return
    const frame = requestAnimationFrame(() => focusField(focus.field))
    return () => cancelAnimationFrame(frame)
  }, [focus])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!form.canSubmit) return
    await submission.run(async () => {
      await updateProfile(profileChanges(type, initial, form.values), form.setServerErrors)
    })
  }

  const values = form.values
  const position = useMemo(
    () => shopLonLat({ latitude: values.latitude, longitude: values.longitude }),
    [values.latitude, values.longitude],
  )
  const { setValue } = form
  const setPosition = useCallback(
    ([lon, lat]: LonLat) => {
      setValue('latitude', coordinateText(lat), { touch: true })
      setValue('longitude', coordinateText(lon), { touch: true })
    },
    [setValue],
  )

  /** Places the position on the town of the address when the address changed, or when there is none yet. */
  const placeFromAddress = async (postcode: string, town: string) => {
    if (addressErrors(postcode, town).postcode) return
    const query = addressQuery(postcode, town)
    const key = addressKey(postcode, town)
    latestAddress.current = key
    if (!query || (position && key === placedFor.current && !note)) return
    const edits = handPlaced.current
    let matches
    try {
      matches = await searchPlaces(query, { limit: ADDRESS_LIMIT })
    } catch (err) {
      console.error('places:', err)
      return
    }
    if (latestAddress.current !== key) return
    if (handPlaced.current !== edits) {
      // Placed by hand while the reference answered: the address keeps that position.
      placedFor.current = key
      return
    }
    const place = addressPlace(matches, postcode, town)
    if (!place) return
    if (!(position && key === placedFor.current)) {
      placedFor.current = key
      setPosition(place.place.city.lonLat)
    }
    setNote(placeNote(place, postcode, town))
  }

  // The towns of the postal code, narrowed by what is typed; the first places the empty map.
  const { matches: found } = usePlaceSearch(addressQuery(values.postcode ?? '', values.town ?? ''), {
    limit: ADDRESS_LIMIT,
  })
  const suggestions = useMemo(() => [...new Set(found.filter((m) => !m.approximate).map(townOf))], [found])
  const townCenter = found[0]?.city.lonLat ?? null

  const input = (field: ProfileField) => (
    <TextInput
      key={field}
      id={profileFieldId(field)}
      label={PROFILE_LABELS[field]}
      placeholder={PLACEHOLDERS[field]}
      value={values[field] ?? ''}
      onChange={(e) => {
        if (field === 'latitude' || field === 'longitude') handPlaced.current++
        form.setValue(field, e.currentTarget.value)
      }}
      onBlur={() => form.touch(field)}
      error={form.errorOf(field)}
    />
  )

  const shop = type === 'distributor'
  const invisible = shop && !isOnMap({ latitude: values.latitude, longitude: values.longitude })

  return (
    <Stack gap="md">
      <Paper
        component="form"
        withBorder
        shadow="sm"
        p="md"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="profile-title"
      >
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2} id="profile-title">
              Informations de profil
            </Title>
            <CloseButton aria-label="Fermer" onClick={onClose} />
          </Group>
          {editable ? null : <Text c="dimmed">{PROFILE_READ_ONLY}</Text>}
          <IdentifierNotice issues={user.identifierIssues} onCorrect={focusField} />
          {/* A native fieldset disables every field at once for a role that reads only. */}
          <fieldset disabled={!editable} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="md">
              {type === 'producer' ? (
                <DeliveryDaysPicker
                  id={profileFieldId('defaultDeliveryDays')}
                  value={values.defaultDeliveryDays}
                  onChange={(days) => form.setValue('defaultDeliveryDays', days, { touch: true })}
                  error={form.errorOf('defaultDeliveryDays')}
                />
              ) : null}
              <Fieldset legend={SECTIONS[0].legend}>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>{SECTIONS[0].fields.map(input)}</SimpleGrid>
              </Fieldset>
              <Fieldset legend={shop ? 'Adresse du magasin' : 'Adresse'}>
                <Stack gap="sm">
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    {input('addressLine1')}
                    {input('addressLine2')}
                  </SimpleGrid>
                  <Grid>
                    <Grid.Col span={{ base: 12, sm: 4 }}>
                      <TextInput
                        id={profileFieldId('postcode')}
                        label={ADDRESS_LABELS.postcode}
                        placeholder={example('74000')}
                        inputMode="numeric"
                        autoComplete="postal-code"
                        value={values.postcode ?? ''}
                        onChange={(e) => form.setValue('postcode', e.currentTarget.value)}
                        onBlur={() => {
                          form.touch('postcode')
                          void placeFromAddress(values.postcode ?? '', values.town ?? '')
                        }}
                        error={form.errorOf('postcode')}
                      />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 8 }}>
                      <Autocomplete
                        id={profileFieldId('town')}
                        label={ADDRESS_LABELS.town}
                        placeholder={example('Annecy')}
                        autoComplete="address-level2"
                        data={suggestions}
                        filter={({ options }) => options}
                        value={values.town ?? ''}
                        onChange={(town) => form.setValue('town', town)}
                        onOptionSubmit={(town) => void placeFromAddress(values.postcode ?? '', town)}
                        onBlur={() => {
                          form.touch('town')
                          void placeFromAddress(values.postcode ?? '', values.town ?? '')
                        }}
                        error={form.errorOf('town')}
                        comboboxProps={{ withinPortal: true }}
                      />
                    </Grid.Col>
                  </Grid>
                  <Text fw={500} size="sm">
                    Position sur la carte
                  </Text>
                  {invisible ? (
                    <Alert color="orange" variant="light" title="Votre magasin n'apparaît pas sur la carte">
                      {SHOP_INVISIBLE} Saisissez le code postal et la ville, ou cliquez sur la carte.
                    </Alert>
                  ) : null}
                  <Grid>
                    <Grid.Col span={{ base: 12, md: 8 }}>
                      <PositionPicker
                        value={position}
                        onChange={(lonLat) => {
                          handPlaced.current++
                          setPosition(lonLat)
                        }}
                        fallbackCenter={townCenter}
                      />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, md: 4 }}>
                      <Stack gap="sm">
                        {input('latitude')}
                        {input('longitude')}
                        <Text size="sm" c="dimmed" role="status">
                          {note ?? 'Le code postal et la ville placent la position ; la carte permet de la préciser.'}
                        </Text>
                      </Stack>
                    </Grid.Col>
                  </Grid>
                </Stack>
              </Fieldset>
              {SECTIONS.slice(1)
                .filter((section) => !section.roles || section.roles.includes(type))
                .map((section) => (
                  <Fieldset key={section.legend} legend={section.legend}>
                    {section.fields.includes('billingAddressLine1') ? (
                      <Stack gap={4} mb="sm">
                        <Text size="sm" c="dimmed">
                          {ACCOUNTANT_NOTE.text}
                        </Text>
                        {may(member?.role, 'invite-member') ? (
                          <Anchor size="sm" href={ROUTES.team} onClick={goToTeam}>
                            {ACCOUNTANT_NOTE.invite}
                          </Anchor>
                        ) : null}
                      </Stack>
                    ) : null}
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>{section.fields.map(input)}</SimpleGrid>
                    {section.fields.includes('iban') && changesBank(values, initial) ? (
                      <PasswordInput
                        mt="sm"
                        id={profileFieldId('currentPassword')}
                        label={BANK_PASSWORD.label}
                        description={BANK_PASSWORD.description}
                        autoComplete="current-password"
                        value={values.currentPassword ?? ''}
                        onChange={(e) => form.setValue('currentPassword', e.currentTarget.value)}
                        onBlur={() => form.touch('currentPassword')}
                        error={form.errorOf('currentPassword')}
                      />
                    ) : null}
                  </Fieldset>
                ))}
            </Stack>
          </fieldset>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Fermer
            </Button>
            {editable ? (
              <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
                {submission.label('Enregistrer')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Paper>
      {/* Each form only for the roles that may send it (daemon/testdata/roles.json). */}
      {type === 'producer' && editable ? <PaymentTermsForm terms={user.paymentTerms} /> : null}
      {user.type === 'producer' && editable ? (
        <VatRegimeForm regime={user.vatRegime} vatNumber={user.tvaintracom ?? ''} />
      ) : null}
      {user.type === 'producer' && may(member?.role, 'connect-pa') ? <EInvoicingForm owner={user.email ?? ''} /> : null}
      {user.type === 'producer' && editable ? <CutoffReminderSwitch on={user.cutoffReminder ?? true} /> : null}
      {member?.person ? <PersonNameForm name={member.person.name} /> : null}
      <NotificationSettings prefs={user.notifications ?? []} />
      {may(member?.role, 'change-email') ? (
        <ChangeEmailForm email={user.email ?? ''} pending={user.emailPending} />
      ) : null}
      <ChangePasswordForm />
      <MyDataPanel />
      {may(member?.role, 'close-account') ? <CloseAccountForm /> : null}
    </Stack>
  )
}
