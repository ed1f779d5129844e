package arena

import (
	"bytes"
	"fmt"
	"testing"
)

// Copies keep their bytes whatever is copied after them (chunks never move), cannot be appended
// into the arena, and a Reset reuses the kept chunks' memory, no more of them than Keep.
func TestCopiesStayPutUntilReset(t *testing.T) {
	a := Arena{Keep: 2}
	var want, got [][]byte
	for i := range 5000 {
		b := bytes.Repeat([]byte(fmt.Sprintf("%d,", i)), i%700)
		want = append(want, b)
		got = append(got, a.Copy(b))
	}
	large := bytes.Repeat([]byte("x"), largest+1)
	got, want = append(got, a.Copy(large)), append(want, large)
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("copy %d changed", i)
		}
		if cap(got[i]) != len(got[i]) {
			t.Fatalf("copy %d has room to grow into the arena: len %d, cap %d", i, len(got[i]), cap(got[i]))
		}
	}
	if a.InUse() < 5*ChunkSize || a.Held() < 6 {
		t.Fatalf("%d bytes in %d chunks, want them in chunks (the large copy apart)", a.InUse(), a.Held())
	}
	bases := []*byte{&a.chunks[0][:1][0], &a.chunks[1][:1][0]}
	a.Reset()
	if a.InUse() != 0 || a.Held() != 2 {
		t.Fatalf("after Reset: %d bytes in use, %d chunks held; want 0 and 2", a.InUse(), a.Held())
	}
	reused := a.Copy([]byte("again"))
	if &reused[0] != bases[0] && &reused[0] != bases[1] {
		t.Fatal("after Reset a copy did not go into a kept chunk")
	}
	if !bytes.Equal(reused, []byte("again")) || a.Held() != 2 {
		t.Fatalf("after Reset a copy took a new chunk: %d held", a.Held())
	}
	var zero Arena
	if c := zero.Copy(nil); len(c) != 0 {
		t.Fatal("copy of nothing")
	}
}
