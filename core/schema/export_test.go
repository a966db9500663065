package schema

// UpToDate exposes upToDate to the package's external tests.
var UpToDate = upToDate
