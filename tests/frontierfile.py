"""A SqliteFrontier file read and written directly, as another program would (layout version 2).

Rows are stored in batch records (see ``_SCHEMA`` in ``geofocus/frontier.py``): per record, the
priorities (float64) and states (uint8) in ``batches``; the fingerprints (text, with their lengths in
characters as int32), slot ids (int32, names in ``slots``) and the requests (JSON text, concatenated,
with their lengths in bytes as int32) in ``batch_requests``; all arrays little-endian.  Changes since
the last compaction are in ``journal`` and ``request_log``; this module reads the records only.
"""

import sqlite3
from array import array


def _ints(blob, code):
    values = array(code)
    values.frombytes(blob)
    return values.tolist()


def stored_rows(path):
    """fingerprint -> {"priority", "state", "slot", "request" (bytes or None)} as the batch records hold them."""
    db = sqlite3.connect(path)
    try:
        slots = dict(db.execute("SELECT id, name FROM slots"))
        rows = {}
        for count, prios, states, text, fp_lengths, slot_ids, lengths, requests in db.execute(
                "SELECT b.count, b.priorities, b.states, r.fingerprints, r.fingerprint_lengths, r.slots, "
                "r.request_lengths, r.requests FROM batches b JOIN batch_requests r USING (first_id)"):
            fp_at = req_at = 0
            prios, slot_ids = _ints(prios, "d"), _ints(slot_ids, "i")
            fp_lengths, lengths = _ints(fp_lengths, "i"), _ints(lengths, "i")
            assert len(prios) == len(states) == len(fp_lengths) == len(lengths) == count
            for k in range(count):
                fp = text[fp_at:fp_at + fp_lengths[k]]
                fp_at += fp_lengths[k]
                request = bytes(requests[req_at:req_at + lengths[k]]) if lengths[k] else None
                req_at += lengths[k]
                rows[fp] = {"priority": prios[k], "state": states[k], "slot": slots[slot_ids[k]], "request": request}
        return rows
    finally:
        db.close()


def replace_stored_requests(path, replacements):
    """Overwrite the stored requests of some fingerprints with other bytes (what a foreign writer could do)."""
    db = sqlite3.connect(path)
    try:
        records = db.execute("SELECT first_id, fingerprints, fingerprint_lengths, request_lengths, requests "
                             "FROM batch_requests").fetchall()
        for first_id, text, fp_lengths, lengths, requests in records:
            fp_at = req_at = 0
            new_lengths, parts = array("i"), []
            for fp_length, length in zip(_ints(fp_lengths, "i"), _ints(lengths, "i"), strict=True):
                fp = text[fp_at:fp_at + fp_length]
                fp_at += fp_length
                data = replacements.get(fp, bytes(requests[req_at:req_at + length]))
                req_at += length
                new_lengths.append(len(data))
                parts.append(data)
            db.execute("UPDATE batch_requests SET request_lengths = ?, requests = ? WHERE first_id = ?",
                       (new_lengths.tobytes(), b"".join(parts), first_id))
        db.commit()
    finally:
        db.close()
