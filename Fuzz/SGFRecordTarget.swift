/// libFuzzer target `sgf-record`: `SGFParser.parse` and `GameRecord.parseCollection` on any bytes.
///
/// Input: the bytes of an SGF file.
///
/// Invariants: no crash; every game that parses writes SGF that parses again to an equal record.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSGFRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = fuzzInput(data, size)
  do throws(SGFError) {
    let trees = try SGFParser.parse(bytes)
    observe(trees.count)
  } catch {
    observe(error.description)
    return 0
  }
  let records: [GameRecord]
  do throws(SGFError) {
    records = try GameRecord.parseCollection(String(decoding: bytes, as: UTF8.self))
  } catch {
    observe(error.description)
    return 0
  }
  for record in records {
    do throws(SGFError) {
      let again = try GameRecord.parse(record.sgf)
      invariant(again == record, "\(record) writes \(record.sgf.debugDescription), which reads as \(again)")
    } catch {
      invariant(false, "\(record) writes \(record.sgf.debugDescription), which does not parse: \(error)")
    }
    observe(record.resultProblem)
  }
  return 0
}
