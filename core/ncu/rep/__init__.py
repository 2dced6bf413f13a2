"""The two readers of ``.ncu-rep`` reports behind one interface (``launch.ReportLaunch``).

* ``wire``: Protocol Buffers' wire format (varints, fields, metric values);
* ``container``: the file's header, blocks, string table, launches' messages and modules;
* ``decoded``: one launch decoded from its message (``DecodedLaunch``);
* ``nvidia``: NVIDIA's ``ncu_report`` (``NvidiaReport``, ``NvidiaLaunch``).

``ncu.report.ReportReader`` chooses between them per launch; nothing else reads a report.
"""
