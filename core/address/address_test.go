package address

import "testing"

func TestDepartment(t *testing.T) {
	for _, c := range []struct{ postcode, want string }{
		{"74230", "74"},
		{"01000", "01"},
		{"75001", "75"},
		{"20000", "2A"},
		{"20167", "2A"},
		{"20200", "2B"},
		{"20600", "2B"},
		{"97400", "974"},
		{"97600", "976"},
		{"98000", "980"},
		{"00100", ""},
		{"7423", ""},
		{"7423O", ""},
		{"", ""},
		{"742300", ""},
	} {
		if got := Department(c.postcode); got != c.want {
			t.Errorf("Department(%q) = %q, want %q", c.postcode, got, c.want)
		}
	}
}

func TestCity(t *testing.T) {
	for _, c := range []struct {
		lines          []string
		index          int
		postcode, city string
		department     string
	}{
		{[]string{"12 rue des Aravis", "74230 Thônes"}, 1, "74230", "Thônes", "74"},
		{[]string{"Lieu-dit Le Bois", "  20167   Ajaccio  ", ""}, 1, "20167", "Ajaccio", "2A"},
		{[]string{"75001 Paris", "Bâtiment B", "69002 Lyon"}, 2, "69002", "Lyon", "69"},
		{[]string{"Route de Thônes", "Haute-Savoie"}, -1, "", "", ""},
		{[]string{"74230"}, -1, "", "", ""},
		{nil, -1, "", "", ""},
	} {
		i, p, city := City(c.lines)
		if i != c.index || p != c.postcode || city != c.city {
			t.Errorf("City(%q) = %d %q %q, want %d %q %q", c.lines, i, p, city, c.index, c.postcode, c.city)
		}
		if d := DepartmentOf(c.lines...); d != c.department {
			t.Errorf("DepartmentOf(%q) = %q, want %q", c.lines, d, c.department)
		}
	}
}
