package schema

import (
	_ "embed"
	"encoding/json"
	"sync"
)

// The ISO 4217 codes the app offers: the list src/values.ts CURRENCY_CODES reads (the PWA's
// currency pickers) and the schemas' currency fields enumerate, read from the same data file.
//
//go:embed data/iso4217.json
var iso4217 []byte

var currencyCodes = sync.OnceValue(func() map[string]struct{} {
	var data struct {
		Currencies []string `json:"currencies"`
	}
	if err := json.Unmarshal(iso4217, &data); err != nil {
		panic("schema: data/iso4217.json: " + err.Error())
	}
	set := make(map[string]struct{}, len(data.Currencies))
	for _, c := range data.Currencies {
		set[c] = struct{}{}
	}
	return set
})

// IsCurrencyCode says whether code is one of the ISO 4217 currencies the app offers (without XTS
// and XXX, like every currency field of the records).
func IsCurrencyCode(code string) bool {
	_, ok := currencyCodes()[code]
	return ok
}
