import { Button, CloseButton, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useCallback, useState } from 'react'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { updateProfile } from '../store/session'
import type { NotificationPref, PaymentTerms, ProfileField, ProfileUpdate, UserType } from '../types'
import { PROFILE_FIELDS, type ProfileValues, validateProfile } from '../validation/profile'
import { ChangeEmailForm } from './ChangeEmailForm'
import { ChangePasswordForm } from './ChangePasswordForm'
import { CutoffReminderSwitch } from './CutoffReminderSwitch'
import { CloseAccountForm } from './CloseAccountForm'
import { DeliveryDaysPicker } from './DeliveryDaysPicker'
import { MyDataPanel } from './MyDataPanel'
import { NotificationSettings } from './NotificationSettings'
import { PaymentTermsForm } from './PaymentTermsForm'
import { ResendConfirmationButton } from './ResendConfirmationButton'

/** Labels of the profile fields (every input is labelled; tests find fields by label). */
export const PROFILE_LABELS: Record<ProfileField, string> = {
  name: "Nom de l'entreprise",
  tel: 'Téléphone',
  addressLine1: 'Adresse',
  addressLine2: "Complément d'adresse",
  addressLine3: 'Code postal et ville',
  latitude: 'Latitude',
  longitude: 'Longitude',
  emailAccounting: 'Email de la comptabilité',
  billingAddressLine1: 'Adresse de facturation',
  billingAddressLine2: "Complément d'adresse de facturation",
  billingAddressLine3: 'Code postal et ville de facturation',
  legal: 'Forme juridique',
  capital: 'Capital social (€)',
  siret: 'SIRET',
  ape: 'Code APE',
  tvaintracom: 'N° de TVA intracommunautaire',
  certification: 'Certification',
  iban: 'IBAN',
  bic: 'BIC',
}

const PLACEHOLDERS: Partial<Record<ProfileField, string>> = {
  tel: '06 12 34 56 78',
  latitude: '45.9016',
  longitude: '6.1213',
  siret: '732 829 320 00074',
  ape: '0113Z',
  tvaintracom: 'FR12345678901',
  iban: 'FR76 3000 6000 0112 3456 7890 189',
  bic: 'BNPAFRPPXXX',
}

/** Under the accounting email while it waits for its link (PRODUCT §13 "Confirming an email"). */
export const ACCOUNTING_UNCONFIRMED =
  'Adresse non confirmée : en attendant, les factures partent vers votre adresse de connexion.'

/**
 * The user fields the form reads: strings per field, plus delivery days for
 * producers, and what the panels under the form show (login email and the
 * one pending, confirmation of the accounting email, notifications).
 */
export type ProfileSource = {
  type: UserType
  email?: string
  emailPending?: string
  emailAccountingConfirmed?: boolean
  notifications?: readonly Readonly<NotificationPref>[]
  defaultDeliveryDays?: readonly boolean[]
  paymentTerms?: PaymentTerms
  cutoffReminder?: boolean
} & Partial<Record<ProfileField, string>>

function initialValues(user: ProfileSource): ProfileValues {
  const values: ProfileValues = {}
  for (const field of PROFILE_FIELDS[user.type]) values[field] = user[field] ?? ''
  if (user.type === 'producer') values.defaultDeliveryDays = [...(user.defaultDeliveryDays ?? [])]
  return values
}

/** The changed fields, trimmed, as the body of `PUT /api/user`. */
export function profileChanges(type: UserType, initial: ProfileValues, values: ProfileValues): ProfileUpdate {
  const update: ProfileUpdate = {}
  for (const field of PROFILE_FIELDS[type]) {
    const value = (values[field] ?? '').trim()
    if (value !== (initial[field] ?? '').trim()) update[field] = value
  }
  if (type === 'producer') {
    const days = values.defaultDeliveryDays ?? []
    const before = initial.defaultDeliveryDays ?? []
    if (days.length !== before.length || days.some((d, i) => d !== before[i])) update.defaultDeliveryDays = days
  }
  return update
}

/**
 * "Informations de profil" (PRODUCT §2, §3, §5): per-role fields, save enabled
 * once a field was touched and no field has an error. Remount it (key) to
 * reload it from a new user.
 */
export function ProfileForm({ user, onClose }: { user: ProfileSource; onClose: () => void }) {
  const type = user.type
  const [initial] = useState(() => initialValues(user))
  const validate = useCallback((values: ProfileValues) => validateProfile(values, type), [type])
  const form = useFormState<ProfileValues, ProfileField | 'defaultDeliveryDays'>(initial, validate, {
    showInitialErrors: true,
  })
  const submission = useSubmit()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!form.canSubmit) return
    await submission.run(async () => {
      await updateProfile(profileChanges(type, initial, form.values))
    })
  }

  // The saved accounting email waits for its link: invoices go to the login email meanwhile.
  const accountingUnconfirmed = !!user.emailAccounting && user.emailAccountingConfirmed === false

  const input = (field: ProfileField) => {
    const text = (
      <TextInput
        key={field}
        label={PROFILE_LABELS[field]}
        placeholder={PLACEHOLDERS[field]}
        value={form.values[field] ?? ''}
        onChange={(e) => form.setValue(field, e.currentTarget.value)}
        onBlur={() => form.touch(field)}
        error={form.errorOf(field)}
      />
    )
    if (field !== 'emailAccounting' || !accountingUnconfirmed) return text
    return (
      <Stack key={field} gap={4}>
        {text}
        <Text size="xs" c="orange.8">
          {ACCOUNTING_UNCONFIRMED}
        </Text>
        <ResendConfirmationButton which="accounting" />
      </Stack>
    )
  }

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
          {type === 'producer' ? (
            <DeliveryDaysPicker
              value={form.values.defaultDeliveryDays}
              onChange={(days) => form.setValue('defaultDeliveryDays', days, { touch: true })}
              error={form.errorOf('defaultDeliveryDays')}
            />
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{PROFILE_FIELDS[type].map(input)}</SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Fermer
            </Button>
            <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
              {submission.label('Enregistrer')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {type === 'producer' ? <PaymentTermsForm terms={user.paymentTerms} /> : null}
      {user.type === 'producer' ? <CutoffReminderSwitch on={user.cutoffReminder ?? true} /> : null}
      <NotificationSettings prefs={user.notifications ?? []} />
      <ChangeEmailForm email={user.email ?? ''} pending={user.emailPending} />
      <ChangePasswordForm />
      <MyDataPanel />
      <CloseAccountForm />
    </Stack>
  )
}
