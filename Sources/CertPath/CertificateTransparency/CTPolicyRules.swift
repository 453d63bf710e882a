/// The rules of each ``CTPolicy`` (see its cases for the published text they follow), applied to
/// the SCTs of one certificate after their signatures were checked.
enum CTPolicyRules {
    /// A certificate's lifetime as a policy measures it, and what the policy requires for it.
    struct Lifetime {
        /// Days, rounded up (Apple: notBefore through notAfter inclusive; Chromium: notAfter − notBefore).
        let days: Int
        /// SCTs from distinct logs required of embedded SCTs; `nil` when no row of the policy applies.
        let required: Int?
        /// The most SCTs of one operator that count (Apple); `nil` for no limit.
        let perOperatorLimit: Int?
    }

    static let day: Int64 = 86_400

    static func lifetime(of certificate: Certificate, under policy: CTPolicy) -> Lifetime {
        let span = certificate.notAfter.secondsSinceEpoch - certificate.notBefore.secondsSinceEpoch
        switch policy {
        case .apple:
            // RFC 5280 4.1.2.5: "from notBefore through notAfter, inclusive"; Apple: a day is 86,400
            // seconds and any time beyond a whole day counts as another day.
            let seconds = max(span + 1, 0)
            let days = Int((seconds + day - 1) / day)
            switch days {
            case ...180: return Lifetime(days: days, required: 2, perOperatorLimit: 1)
            case 181...398: return Lifetime(days: days, required: 3, perOperatorLimit: 2)
            default: return Lifetime(days: days, required: nil, perOperatorLimit: 2)
            }
        case .chromium:
            // Chrome's policy: more than 180 days (notAfter − notBefore) needs 3 SCTs.
            let days = Int((max(span, 0) + day - 1) / day)
            return Lifetime(days: days, required: span > 180 * day ? 3 : 2, perOperatorLimit: nil)
        }
    }

    /// The states in which a log is "current" at the time of check: Apple's "currently approved"
    /// (usable), Chromium's qualified, usable or read-only.
    static func currentStates(_ policy: CTPolicy) -> [CTLogList.State.Kind] {
        policy == .apple ? [.usable] : [.qualified, .usable, .readonly]
    }

    /// Whether `check`'s log is current at `validationTime`; a log retired after the validation
    /// time was still in service then.
    static func isCurrent(_ check: SCTCheck, _ policy: CTPolicy, validationTime: UnixTime) -> Bool {
        guard let state = check.log?.state else { return false }
        if state.kind == .retired { return state.since > validationTime }
        return currentStates(policy).contains(state.kind)
    }

    /// Why a verified SCT cannot count toward the embedded requirement, `nil` when it can: its log
    /// is qualified, usable or read-only, or retired after the SCT's timestamp (both policies: "once
    /// or currently approved", Chromium's "Retired, if the SCT was issued before the log retired").
    static func approvalExclusion(_ check: SCTCheck) -> SCTCheck.Exclusion? {
        guard let state = check.log?.state else { return .logState(nil) }
        switch state.kind {
        case .qualified, .usable, .readonly: return nil
        case .retired:
            let retiredAt = UInt64(max(state.since.secondsSinceEpoch, 0)) * 1000
            return check.sct.timestamp < retiredAt ? nil : .retiredBeforeTimestamp(state.since)
        case .pending, .rejected: return .logState(state.kind)
        }
    }

    /// Applies `policy` to `checks` (marking what counted and why the others did not) and returns
    /// the unmet rules: none when either the embedded rule or the TLS/OCSP-delivered rule is met.
    static func apply(_ policy: CTPolicy, lifetime: Lifetime, checks: inout [SCTCheck], validationTime: UnixTime) -> [CTRule] {
        let verified = checks.indices.filter { checks[$0].status == .verified }
        let delivered = verified.filter { checks[$0].source != .embedded }

        // Embedded SCTs.
        var embeddedRules: [CTRule] = []
        var embeddedExclusions: [Int: SCTCheck.Exclusion] = [:]
        var approved: [Int] = []
        for i in verified where checks[i].source == .embedded {
            if let exclusion = approvalExclusion(checks[i]) { embeddedExclusions[i] = exclusion } else { approved.append(i) }
        }
        // Current logs first, so that the one required current SCT is among those counted.
        approved.sort { isCurrent(checks[$0], policy, validationTime: validationTime) && !isCurrent(checks[$1], policy, validationTime: validationTime) }
        let embeddedCounted = select(approved, checks: checks, perOperatorLimit: lifetime.perOperatorLimit, exclusions: &embeddedExclusions)
        if let required = lifetime.required {
            if embeddedCounted.count < required {
                embeddedRules.append(.tooFewSCTs(required: required, counted: embeddedCounted.count, lifetimeDays: lifetime.days,
                                                 perOperatorLimit: lifetime.perOperatorLimit))
            }
        } else {
            embeddedRules.append(.lifetimeBeyondPolicy(days: lifetime.days, maximum: 398))
        }
        if !embeddedCounted.contains(where: { isCurrent(checks[$0], policy, validationTime: validationTime) }) {
            embeddedRules.append(.noSCTFromCurrentLog(states: currentStates(policy)))
        }
        if policy == .chromium {
            let operators = Set(embeddedCounted.compactMap { checks[$0].operatorName }).count
            if operators < 2 { embeddedRules.append(.tooFewOperators(required: 2, found: operators)) }
        }

        // SCTs delivered by TLS or OCSP, with any embedded ones: 2 from distinct current logs.
        var deliveredRules: [CTRule] = []
        var deliveredExclusions: [Int: SCTCheck.Exclusion] = [:]
        var deliveredCounted: [Int] = []
        if !delivered.isEmpty {
            var current: [Int] = []
            for i in verified {
                if isCurrent(checks[i], policy, validationTime: validationTime) { current.append(i) } else { deliveredExclusions[i] = .notCurrent }
            }
            current.sort { checks[$0].source != .embedded && checks[$1].source == .embedded }  // delivered first
            deliveredCounted = select(current, checks: checks, perOperatorLimit: nil, exclusions: &deliveredExclusions)
            let deliveredCount = deliveredCounted.filter { checks[$0].source != .embedded }.count
            if deliveredCounted.count < 2 || deliveredCount == 0 {
                deliveredRules.append(.tooFewDeliveredSCTs(required: 2, counted: deliveredCounted.count, delivered: delivered.count))
            }
            if policy == .chromium {
                let operators = Set(deliveredCounted.compactMap { checks[$0].operatorName }).count
                if operators < 2 { deliveredRules.append(.tooFewOperators(required: 2, found: operators)) }
            }
        }

        // The rule set whose SCTs are reported as counted: the one met; when neither is, the
        // delivered one if the certificate embeds no SCT (the embedded rule has nothing to say then).
        let hasEmbedded = checks.contains { $0.source == .embedded }
        let useDelivered = !delivered.isEmpty && ((deliveredRules.isEmpty && !embeddedRules.isEmpty) || !hasEmbedded)
        let counted = useDelivered ? deliveredCounted : embeddedCounted
        let exclusions = useDelivered ? deliveredExclusions : embeddedExclusions
        let otherExclusions = useDelivered ? embeddedExclusions : deliveredExclusions
        for i in verified {
            checks[i].counted = counted.contains(i)
            checks[i].exclusion = checks[i].counted ? nil : (exclusions[i] ?? otherExclusions[i] ?? .otherRuleApplied)
        }
        if embeddedRules.isEmpty || (!delivered.isEmpty && deliveredRules.isEmpty) { return [] }
        // Only the relevant set's failures when the certificate embeds no SCT but some were delivered.
        if !hasEmbedded && !delivered.isEmpty { return deliveredRules }
        return embeddedRules + deliveredRules
    }

    /// Picks, in `candidates`' order, one SCT per log and at most `perOperatorLimit` per operator.
    static func select(_ candidates: [Int], checks: [SCTCheck], perOperatorLimit: Int?, exclusions: inout [Int: SCTCheck.Exclusion]) -> [Int] {
        var logs: Set<SHA256Digest> = []
        var perOperator: [String: Int] = [:]
        var selected: [Int] = []
        for i in candidates {
            guard let log = checks[i].log else { continue }
            guard !logs.contains(log.logID) else { exclusions[i] = .duplicateLog; continue }
            let name = checks[i].operatorName ?? ""
            if let limit = perOperatorLimit, perOperator[name, default: 0] >= limit { exclusions[i] = .operatorLimit; continue }
            logs.insert(log.logID)
            perOperator[name, default: 0] += 1
            selected.append(i)
        }
        return selected
    }
}
