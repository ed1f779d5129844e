// Package layers holds the map of which Go package of Patrimonio may import which (mayImport in
// layers_test.go; the README's "Architecture map" draws it) and the test that fails when a
// package's non-test files import against it, or when a package is not in the map at all.
package layers
