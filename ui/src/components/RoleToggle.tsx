import { Input, SegmentedControl } from '@mantine/core'

/** The role chosen at registration: Distributeur or Producteur (PRODUCT §6). */
export function RoleToggle({
  distributor,
  onChange,
}: {
  distributor: boolean
  onChange: (distributor: boolean) => void
}) {
  return (
    <Input.Wrapper label="Type de compte" id="role-toggle-label">
      <SegmentedControl
        fullWidth
        aria-labelledby="role-toggle-label"
        value={distributor ? 'distributor' : 'producer'}
        onChange={(value) => onChange(value === 'distributor')}
        data={[
          { label: 'Distributeur', value: 'distributor' },
          { label: 'Producteur', value: 'producer' },
        ]}
      />
    </Input.Wrapper>
  )
}
