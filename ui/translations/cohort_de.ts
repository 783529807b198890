<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>EngineController</name>
    <message>
        <source>Loading the compute engine</source>
        <translation>Die Rechen-Engine wird geladen</translation>
    </message>
    <message>
        <source>Cohort cannot work: %1</source>
        <translation>Cohort kann nicht arbeiten: %1</translation>
    </message>
</context>
<context>
    <name>EngineEvent</name>
    <message>
        <source>Lifecycle</source>
        <translation>Lebenszyklus</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>Hub</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Rollouts</source>
        <translation>Rollouts</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Rechenleistung</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>DiLoCo</source>
        <translation>DiLoCo</translation>
    </message>
    <message>
        <source>Earnings</source>
        <translation>Erträge</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>Aktualisierung</translation>
    </message>
    <message>
        <source>Control</source>
        <translation>Steuerung</translation>
    </message>
</context>
<context>
    <name>MemoryBudget</name>
    <message>
        <source>needs %1 GB of GPU memory for one sequence; Cohort may use %2 GB of this GPU (Settings, Compute)</source>
        <translation>braucht %1 GB GPU-Speicher für eine Sequenz; Cohort darf %2 GB dieser GPU nutzen (Einstellungen, Rechnen)</translation>
    </message>
</context>
<context>
    <name>NodeState</name>
    <message>
        <source>Starting</source>
        <translation>Startet</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Verbindet</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Untätig</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>Lädt herunter</translation>
    </message>
    <message>
        <source>Syncing</source>
        <translation>Synchronisiert</translation>
    </message>
    <message>
        <source>Throttled</source>
        <translation>Gedrosselt</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Wird beendet</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>paused by you</source>
        <translation>von dir pausiert</translation>
    </message>
    <message>
        <source>the disk is almost full</source>
        <translation>die Festplatte ist fast voll</translation>
    </message>
    <message>
        <source>the GPU is above your temperature limit</source>
        <translation>die GPU liegt über deinem Temperaturlimit</translation>
    </message>
    <message>
        <source>the power limit is reached</source>
        <translation>das Leistungslimit ist erreicht</translation>
    </message>
    <message>
        <source>the computer is on battery power</source>
        <translation>der Computer läuft im Akkubetrieb</translation>
    </message>
    <message>
        <source>outside your schedule</source>
        <translation>außerhalb deines Zeitplans</translation>
    </message>
    <message>
        <source>the computer is in use</source>
        <translation>der Computer wird gerade benutzt</translation>
    </message>
    <message>
        <source>snoozed</source>
        <translation>schlummert</translation>
    </message>
    <message>
        <source>Finishing up and shutting down</source>
        <translation>Schließt ab und beendet sich</translation>
    </message>
    <message>
        <source>Starting the engine</source>
        <translation>Engine wird gestartet</translation>
    </message>
    <message>
        <source>retrying in %1 s</source>
        <translation>neuer Versuch in %1 s</translation>
    </message>
    <message>
        <source>retrying now</source>
        <translation>neuer Versuch jetzt</translation>
    </message>
    <message>
        <source>Cannot reach the hub; %1</source>
        <translation>Hub nicht erreichbar; %1</translation>
    </message>
    <message>
        <source>Cannot reach the hub (%1); %2</source>
        <translation>Hub nicht erreichbar (%1); %2</translation>
    </message>
    <message>
        <source>Registering with the hub</source>
        <translation>Anmeldung beim Hub</translation>
    </message>
    <message>
        <source>Working slower because %1</source>
        <translation>Arbeitet langsamer, weil %1</translation>
    </message>
    <message>
        <source>Downloading the model</source>
        <translation>Modell wird heruntergeladen</translation>
    </message>
    <message>
        <source>Synchronising with other contributors</source>
        <translation>Synchronisiert mit anderen Teilnehmern</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>Arbeitet</translation>
    </message>
    <message>
        <source>Connected; no task joined</source>
        <translation>Verbunden; keiner Aufgabe beigetreten</translation>
    </message>
    <message>
        <source>another program needs the computer</source>
        <translation>ein anderes Programm braucht den Computer</translation>
    </message>
    <message>
        <source>A full-screen program is running (%1)</source>
        <translation>Ein Vollbildprogramm läuft (%1)</translation>
    </message>
    <message>
        <source>A full-screen program is running</source>
        <translation>Ein Vollbildprogramm läuft</translation>
    </message>
    <message>
        <source>A program on your list is running (%1)</source>
        <translation>Ein Programm aus deiner Liste läuft (%1)</translation>
    </message>
    <message>
        <source>Another program uses the GPU (%1)</source>
        <translation>Ein anderes Programm nutzt die GPU (%1)</translation>
    </message>
    <message>
        <source>Another program uses the GPU</source>
        <translation>Ein anderes Programm nutzt die GPU</translation>
    </message>
</context>
<context>
    <name>ScheduleWindow</name>
    <message>
        <source>schedule &apos;%1&apos;: %2</source>
        <translation>Zeitplan „%1“: %2</translation>
    </message>
    <message>
        <source>expected days and hours, e.g. &quot;mon-fri 22:00-06:00&quot;</source>
        <translation>erwartet werden Tage und Uhrzeiten, z. B. „mon-fri 22:00-06:00“</translation>
    </message>
    <message>
        <source>unknown day range &apos;%1&apos;</source>
        <translation>unbekannter Tagesbereich „%1“</translation>
    </message>
    <message>
        <source>unknown day &apos;%1&apos; (use mon, tue, ..., sun, daily, weekdays, weekend)</source>
        <translation>unbekannter Tag „%1“ (verwenden Sie mon, tue, ..., sun, daily, weekdays, weekend)</translation>
    </message>
    <message>
        <source>hours must be 00:00-24:00</source>
        <translation>Uhrzeiten müssen zwischen 00:00 und 24:00 liegen</translation>
    </message>
    <message>
        <source>no days</source>
        <translation>keine Tage</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Enter an http:// or https:// address, or leave it empty for the local network.</source>
        <translation>Geben Sie eine http://- oder https://-Adresse ein, oder lassen Sie das Feld leer für das lokale Netzwerk.</translation>
    </message>
    <message>
        <source>The address has no host name.</source>
        <translation>Die Adresse hat keinen Hostnamen.</translation>
    </message>
    <message>
        <source>Do not put a user name or password in the address.</source>
        <translation>Die Adresse darf keinen Benutzernamen und kein Passwort enthalten.</translation>
    </message>
    <message>
        <source>The address must not contain &apos;?&apos; or &apos;#&apos;.</source>
        <translation>Die Adresse darf weder „?“ noch „#“ enthalten.</translation>
    </message>
    <message>
        <source>Choose a full path (an absolute folder).</source>
        <translation>Wählen Sie einen vollständigen Pfad (einen absoluten Ordner).</translation>
    </message>
    <message>
        <source>This path is a file, not a folder.</source>
        <translation>Dieser Pfad ist eine Datei, kein Ordner.</translation>
    </message>
    <message>
        <source>This folder is not writable.</source>
        <translation>In diesen Ordner kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>Use 0 (no limit) up to %1 KiB/s.</source>
        <translation>Verwenden Sie 0 (keine Grenze) bis %1 KiB/s.</translation>
    </message>
    <message>
        <source>Use 1 to 240 minutes.</source>
        <translation>Verwenden Sie 1 bis 240 Minuten.</translation>
    </message>
    <message>
        <source>Use at most 28 time windows.</source>
        <translation>Verwenden Sie höchstens 28 Zeitfenster.</translation>
    </message>
    <message>
        <source>Use 0 (no limit) or 50 to 100 °C.</source>
        <translation>Verwenden Sie 0 (keine Grenze) oder 50 bis 100 °C.</translation>
    </message>
    <message>
        <source>Use 0 (no limit) or 10 to 2000 W.</source>
        <translation>Verwenden Sie 0 (keine Grenze) oder 10 bis 2000 W.</translation>
    </message>
    <message>
        <source>Use 0 (no cap) up to 1000000 GiB.</source>
        <translation>Verwenden Sie 0 (keine Grenze) bis 1000000 GiB.</translation>
    </message>
    <message>
        <source>Choose one of the languages offered.</source>
        <translation>Wählen Sie eine der angebotenen Sprachen.</translation>
    </message>
    <message>
        <source>Choose at most %1 GPUs.</source>
        <translation>Wählen Sie höchstens %1 GPUs.</translation>
    </message>
    <message>
        <source>A GPU in the list has no usable identifier.</source>
        <translation>Eine GPU in der Liste hat keine verwendbare Kennung.</translation>
    </message>
    <message>
        <source>Use 10 to 100 % of each GPU&apos;s memory.</source>
        <translation>Verwenden Sie 10 bis 100 % des Speichers jeder GPU.</translation>
    </message>
    <message>
        <source>The proxy address is not readable.</source>
        <translation>Die Proxy-Adresse ist nicht lesbar.</translation>
    </message>
    <message>
        <source>The certificate&apos;s file name is not readable.</source>
        <translation>Der Dateiname des Zertifikats ist nicht lesbar.</translation>
    </message>
    <message>
        <source>There is no file %1.</source>
        <translation>Es gibt keine Datei %1.</translation>
    </message>
    <message>
        <source>The file holds no PEM certificate.</source>
        <translation>Die Datei enthält kein PEM-Zertifikat.</translation>
    </message>
    <message>
        <source>A hub key is 44 characters of base64 (an ed25519 public key), as the hub prints it at start.</source>
        <translation>Ein Hub-Schlüssel besteht aus 44 Zeichen Base64 (ein öffentlicher Ed25519-Schlüssel), wie der Hub ihn beim Start ausgibt.</translation>
    </message>
    <message>
        <source>Use 0 (not set) up to 100 per kWh.</source>
        <translation>Verwenden Sie 0 (nicht gesetzt) bis 100 pro kWh.</translation>
    </message>
    <message>
        <source>Use 0 (unknown) up to 1000000.</source>
        <translation>Verwenden Sie 0 (unbekannt) bis 1000000.</translation>
    </message>
    <message>
        <source>Use a short label of at most 8 characters, e.g. EUR.</source>
        <translation>Verwenden Sie eine kurze Bezeichnung mit höchstens 8 Zeichen, z. B. EUR.</translation>
    </message>
    <message>
        <source>Name the currency of the price, e.g. EUR.</source>
        <translation>Nennen Sie die Währung des Preises, z. B. EUR.</translation>
    </message>
    <message>
        <source>Use at most 64 characters.</source>
        <translation>Verwenden Sie höchstens 64 Zeichen.</translation>
    </message>
    <message>
        <source>Use printable characters only.</source>
        <translation>Verwenden Sie nur druckbare Zeichen.</translation>
    </message>
    <message>
        <source>List at most %1 programs.</source>
        <translation>Geben Sie höchstens %1 Programme an.</translation>
    </message>
    <message>
        <source>A program in the list has no usable name.</source>
        <translation>Ein Programm in der Liste hat keinen verwendbaren Namen.</translation>
    </message>
    <message>
        <source>Give a memory share of its own to at most %1 GPUs.</source>
        <translation>Geben Sie höchstens %1 GPUs einen eigenen Speicheranteil.</translation>
    </message>
    <message>
        <source>Give each GPU 10 to 100 % of its memory.</source>
        <translation>Geben Sie jeder GPU 10 bis 100 % ihres Speichers.</translation>
    </message>
    <message>
        <source>Enter the proxy as host:port, e.g. proxy.example.org:3128.</source>
        <translation>Geben Sie den Proxy als host:port ein, z. B. proxy.example.org:3128.</translation>
    </message>
    <message>
        <source>The port must be a number from 1 to 65535.</source>
        <translation>Der Port muss eine Zahl von 1 bis 65535 sein.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name or address.</source>
        <translation>„%1“ ist weder ein Hostname noch eine Adresse.</translation>
    </message>
</context>
<context>
    <name>TaskFit</name>
    <message>
        <source>Cannot run: %1</source>
        <translation>Nicht ausführbar: %1</translation>
    </message>
    <message>
        <source>Fits: about %1 credits/h (%2 tokens/s)</source>
        <translation>Passt: etwa %1 Credits/h (%2 Tokens/s)</translation>
    </message>
    <message>
        <source>Fits (speed not measured yet)</source>
        <translation>Passt (Geschwindigkeit noch nicht gemessen)</translation>
    </message>
    <message>
        <source>this version of Cohort cannot run %1 tasks yet</source>
        <translation>diese Cohort-Version kann %1-Aufgaben noch nicht ausführen</translation>
    </message>
    <message>
        <source>needs %1 CPU cores, this computer has %2</source>
        <translation>braucht %1 CPU-Kerne, dieser Computer hat %2</translation>
    </message>
    <message>
        <source>needs %1 GB of memory, this computer has %2</source>
        <translation>braucht %1 GB Arbeitsspeicher, dieser Computer hat %2</translation>
    </message>
    <message>
        <source>needs an NVIDIA GPU</source>
        <translation>braucht eine NVIDIA-GPU</translation>
    </message>
    <message>
        <source>needs %1 GB of GPU memory, the largest GPU here has %2</source>
        <translation>braucht %1 GB GPU-Speicher, die größte GPU hier hat %2</translation>
    </message>
</context>
<context>
    <name>cohort::ActivityModel</name>
    <message>
        <source>Info</source>
        <translation>Info</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>cohort::ActivityPage</name>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Empty this list; the engine keeps running</source>
        <translation>Diese Liste leeren; die Engine läuft weiter</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>Alles</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>Warnungen und Fehler</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>Nur Fehler</translation>
    </message>
    <message>
        <source>Show events of this severity</source>
        <translation>Ereignisse dieses Schweregrads anzeigen</translation>
    </message>
    <message>
        <source>All subsystems</source>
        <translation>Alle Subsysteme</translation>
    </message>
    <message>
        <source>Show events of this subsystem</source>
        <translation>Ereignisse dieses Subsystems anzeigen</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the selected events (or all shown) as text</source>
        <translation>Die ausgewählten (oder alle angezeigten) Ereignisse als Text kopieren</translation>
    </message>
    <message>
        <source>Save diagnostics…</source>
        <translation>Diagnosedaten speichern…</translation>
    </message>
    <message>
        <source>A zip of events, status, settings and versions for a bug report; never your key</source>
        <translation>Ein ZIP-Archiv mit Ereignissen, Status, Einstellungen und Versionen für einen Fehlerbericht – niemals Ihr Schlüssel</translation>
    </message>
    <message>
        <source>What the engine has been doing, newest at the bottom.</source>
        <translation>Was die Engine getan hat, das Neueste unten.</translation>
    </message>
    <message>
        <source>Each batch</source>
        <translation>Jeder Batch</translation>
    </message>
    <message>
        <source>Show a row for every batch and download; otherwise the engine sums them up once a minute</source>
        <translation>Eine Zeile für jeden Batch und jeden Download zeigen; sonst fasst die Engine sie einmal pro Minute zusammen</translation>
    </message>
</context>
<context>
    <name>cohort::DashboardPage</name>
    <message>
        <source>Cohort %1 is available.</source>
        <translation>Cohort %1 ist verfügbar.</translation>
    </message>
    <message>
        <source>This hub needs Cohort %1 or newer; you have %2.</source>
        <translation>Dieser Hub braucht Cohort %1 oder neuer; Sie haben %2.</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Herunterladen</translation>
    </message>
    <message>
        <source>This node</source>
        <translation>Dieser Knoten</translation>
    </message>
    <message>
        <source>Node ID</source>
        <translation>Knoten-ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>Hub</translation>
    </message>
    <message>
        <source>Registered</source>
        <translation>Registriert</translation>
    </message>
    <message>
        <source>Last heartbeat</source>
        <translation>Letztes Lebenszeichen</translation>
    </message>
    <message>
        <source>Joined task</source>
        <translation>Beigetretene Aufgabe</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Rollouts</source>
        <translation>Rollouts</translation>
    </message>
    <message>
        <source>Last problem</source>
        <translation>Letztes Problem</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Dieser Computer</translation>
    </message>
    <message>
        <source>Compute device</source>
        <translation>Rechengerät</translation>
    </message>
    <message>
        <source>CPU use</source>
        <translation>CPU-Auslastung</translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation>Belegter Arbeitsspeicher</translation>
    </message>
    <message>
        <source>Used by Cohort</source>
        <translation>Von Cohort genutzt</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation>Letzte 5 Minuten</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>GPU chart range</source>
        <translation>Zeitraum des GPU-Diagramms</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Let this computer work again</source>
        <translation>Diesen Computer wieder arbeiten lassen</translation>
    </message>
    <message>
        <source>Stop working until you resume; nothing is lost</source>
        <translation>Arbeit anhalten, bis Sie fortsetzen; nichts geht verloren</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>noch nicht</translation>
    </message>
    <message>
        <source> (1 failure since)</source>
        <translation> (seitdem 1 Fehlschlag)</translation>
    </message>
    <message>
        <source> (%1 failures since)</source>
        <translation> (seitdem %1 Fehlschläge)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>detecting…</source>
        <translation>wird erkannt…</translation>
    </message>
    <message>
        <source>1 GPU: %1</source>
        <translation>1 GPU: %1</translation>
    </message>
    <message>
        <source>%1 GPUs: %2</source>
        <translation>%1 GPUs: %2</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>noch keine</translation>
    </message>
    <message>
        <source>1 batch accepted</source>
        <translation>1 Batch angenommen</translation>
    </message>
    <message>
        <source>%1 batches accepted</source>
        <translation>%1 Batches angenommen</translation>
    </message>
    <message>
        <source>, %1 rejected</source>
        <translation>, %1 abgelehnt</translation>
    </message>
    <message>
        <source>, %1 tokens generated</source>
        <translation>, %1 Token erzeugt</translation>
    </message>
    <message>
        <source> (%1 tokens/s)</source>
        <translation> (%1 Token/s)</translation>
    </message>
    <message>
        <source>; last batch scored %1 of 100 with version %2</source>
        <translation>; letzter Batch erzielte %1 von 100 mit Version %2</translation>
    </message>
    <message>
        <source>; 1 batch waiting to be sent</source>
        <translation>; 1 Batch wartet auf das Senden</translation>
    </message>
    <message>
        <source>; %1 batches waiting to be sent</source>
        <translation>; %1 Batches warten auf das Senden</translation>
    </message>
    <message>
        <source>; last rejection: %1</source>
        <translation>; letzte Ablehnung: %1</translation>
    </message>
    <message>
        <source>version %1, verified</source>
        <translation>Version %1, verifiziert</translation>
    </message>
    <message>
        <source>downloading version %1: %2% of %3</source>
        <translation>Version %1 wird heruntergeladen: %2 % von %3</translation>
    </message>
    <message>
        <source> at %1/s</source>
        <translation> mit %1/s</translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation>, noch %1 s</translation>
    </message>
    <message numerus="yes">
        <source> (%n relay(s))</source>
        <translation>
            <numerusform> (%n Relay)</numerusform>
            <numerusform> (%n Relays)</numerusform>
        </translation>
    </message>
    <message>
        <source>; download of version %1 paused at %2%</source>
        <translation>; Download von Version %1 bei %2 % pausiert</translation>
    </message>
    <message>
        <source>; download failed: %1</source>
        <translation>; Download fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>Relay</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Geschwindigkeit</translation>
    </message>
    <message>
        <source>Fetched</source>
        <translation>Abgerufen</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>In Übertragung</translation>
    </message>
    <message>
        <source>Checkpoint relays</source>
        <translation>Checkpoint-Relays</translation>
    </message>
    <message>
        <source>%1 MB/s</source>
        <translation>%1 MB/s</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message numerus="yes">
        <source>%n failure(s): %1</source>
        <translation>
            <numerusform>%n Fehlschlag: %1</numerusform>
            <numerusform>%n Fehlschläge: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>not training</source>
        <translation>kein Training</translation>
    </message>
    <message>
        <source>not training: %1</source>
        <translation>kein Training: %1</translation>
    </message>
    <message>
        <source>joining the training ring…</source>
        <translation>Beitritt zum Trainingsring…</translation>
    </message>
    <message>
        <source>outer step %1, inner step %2 of %3, training alone</source>
        <translation>äußerer Schritt %1, innerer Schritt %2 von %3, trainiert allein</translation>
    </message>
    <message>
        <source>outer step %1, inner step %2 of %3, %4 peers</source>
        <translation>äußerer Schritt %1, innerer Schritt %2 von %3, %4 Peers</translation>
    </message>
    <message>
        <source> — averaging with the others</source>
        <translation> – Mittelung mit den anderen</translation>
    </message>
    <message>
        <source> — syncing the shared model</source>
        <translation> – gemeinsames Modell wird synchronisiert</translation>
    </message>
    <message>
        <source>; loss %1</source>
        <translation>; Loss %1</translation>
    </message>
    <message>
        <source>; 1 outer step contributed</source>
        <translation>; 1 äußerer Schritt beigetragen</translation>
    </message>
    <message>
        <source>; %1 outer steps contributed</source>
        <translation>; %1 äußere Schritte beigetragen</translation>
    </message>
    <message>
        <source>; last average moved %1</source>
        <translation>; letzte Mittelung übertrug %1</translation>
    </message>
    <message>
        <source>, last sync fetched %1</source>
        <translation>, letzte Synchronisierung lud %1</translation>
    </message>
    <message>
        <source>, in step with the others</source>
        <translation>, im Gleichschritt mit den anderen</translation>
    </message>
    <message>
        <source>stopped after </source>
        <translation>angehalten nach: </translation>
    </message>
    <message>
        <source>Choose a task…</source>
        <translation>Aufgabe wählen…</translation>
    </message>
    <message>
        <source>Pick what this computer works on, from the tasks the hub offers</source>
        <translation>Wählen Sie aus den Aufgaben des Hubs, woran dieser Computer arbeitet</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>version %1 answers %2 % of held-out problems correctly (%3 % at version %4)</source>
        <translation>Version %1 beantwortet %2 % der zurückgehaltenen Aufgaben richtig (%3 % bei Version %4)</translation>
    </message>
    <message>
        <source>your part %1 % of accepted batches, rank %2 of %3</source>
        <translation>Ihr Anteil %1 % der angenommenen Stapel, Rang %2 von %3</translation>
    </message>
    <message>
        <source>%1 (%2, paused)</source>
        <translation>%1 (%2, pausiert)</translation>
    </message>
    <message>
        <source>%1 (%2, waiting for %3)</source>
        <translation>%1 (%2, wartet auf %3)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
    <message>
        <source>held-out loss %1 at outer step %2 (%3 at outer step %4)</source>
        <translation>Verlust auf zurückgehaltenen Daten %1 bei äußerem Schritt %2 (%3 bei äußerem Schritt %4)</translation>
    </message>
</context>
<context>
    <name>cohort::DataFolderMove</name>
    <message>
        <source>Choose the folder to move the data to.</source>
        <translation>Wählen Sie den Ordner, in den die Daten verschoben werden sollen.</translation>
    </message>
    <message>
        <source>Choose a full path (an absolute folder).</source>
        <translation>Wählen Sie einen vollständigen Pfad (einen absoluten Ordner).</translation>
    </message>
    <message>
        <source>That is the current data folder.</source>
        <translation>Das ist der aktuelle Datenordner.</translation>
    </message>
    <message>
        <source>The new folder cannot be inside the current data folder.</source>
        <translation>Der neue Ordner darf nicht im aktuellen Datenordner liegen.</translation>
    </message>
    <message>
        <source>This path is a file, not a folder.</source>
        <translation>Dieser Pfad ist eine Datei, kein Ordner.</translation>
    </message>
    <message>
        <source>The current data folder is inside that folder. Choose an empty folder or a new one.</source>
        <translation>Der aktuelle Datenordner liegt in diesem Ordner. Wählen Sie einen leeren oder einen neuen Ordner.</translation>
    </message>
    <message>
        <source>That folder already holds Cohort data with another node key. Choose an empty folder or a new one.</source>
        <translation>Dieser Ordner enthält bereits Cohort-Daten mit einem anderen Knotenschlüssel. Wählen Sie einen leeren oder einen neuen Ordner.</translation>
    </message>
    <message>
        <source>That folder is not empty. Choose an empty folder or a new one: Cohort does not mix its data with other files.</source>
        <translation>Dieser Ordner ist nicht leer. Wählen Sie einen leeren oder einen neuen Ordner: Cohort mischt seine Daten nicht mit anderen Dateien.</translation>
    </message>
    <message>
        <source>The current data folder %1 does not exist, so there is nothing to move.</source>
        <translation>Der aktuelle Datenordner %1 existiert nicht, daher gibt es nichts zu verschieben.</translation>
    </message>
    <message>
        <source>Could not create %1.</source>
        <translation>%1 konnte nicht erstellt werden.</translation>
    </message>
    <message>
        <source>Not enough free space in %1: the data needs %2, %3 are free.</source>
        <translation>Nicht genug freier Speicherplatz in %1: Die Daten benötigen %2, frei sind %3.</translation>
    </message>
    <message>
        <source>The move was cancelled.</source>
        <translation>Das Verschieben wurde abgebrochen.</translation>
    </message>
    <message>
        <source>Could not copy %1 to %2.</source>
        <translation>%1 konnte nicht nach %2 kopiert werden.</translation>
    </message>
    <message>
        <source>The copy of %1 does not match the original.</source>
        <translation>Die Kopie von %1 stimmt nicht mit dem Original überein.</translation>
    </message>
</context>
<context>
    <name>cohort::DesktopApp</name>
    <message>
        <source>Cohort is still running</source>
        <translation>Cohort läuft weiter</translation>
    </message>
    <message>
        <source>It keeps working in the notification area. Use Quit in its menu to stop it.</source>
        <translation>Es arbeitet im Infobereich weiter. Wählen Sie „Beenden“ in seinem Menü, um es zu beenden.</translation>
    </message>
    <message>
        <source>Save diagnostics</source>
        <translation>Diagnosedaten speichern</translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation>ZIP-Archive (*.zip)</translation>
    </message>
    <message>
        <source>The diagnostics were not saved: %1</source>
        <translation>Die Diagnosedaten wurden nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved %1.
It contains the recent events, the status, your settings and the names of the files in the data folder; never your node key.</source>
        <translation>%1 gespeichert.
Die Datei enthält die letzten Ereignisse, den Status, Ihre Einstellungen und die Namen der Dateien im Datenordner – niemals Ihren Knotenschlüssel.</translation>
    </message>
</context>
<context>
    <name>cohort::DoctorDialog</name>
    <message>
        <source>%1 things keep Cohort from working here; each says how to fix it.</source>
        <translation>%1 Dinge hindern Cohort hier an der Arbeit; zu jedem steht, wie es sich beheben lässt.</translation>
    </message>
    <message>
        <source>%1
Fix: %2</source>
        <translation>%1
Abhilfe: %2</translation>
    </message>
    <message>
        <source>1 thing keeps Cohort from working here; it says how to fix it.</source>
        <translation>1 Ding hindert Cohort hier an der Arbeit; dort steht, wie es sich beheben lässt.</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Erneut prüfen</translation>
    </message>
    <message>
        <source>Check this computer</source>
        <translation>Diesen Computer prüfen</translation>
    </message>
    <message>
        <source>Checking this computer… (the hub&apos;s answers can take a few seconds)</source>
        <translation>Dieser Computer wird geprüft … (die Antworten des Hubs können einige Sekunden dauern)</translation>
    </message>
    <message>
        <source>Cohort can work here; %1 things could be better.</source>
        <translation>Cohort kann hier arbeiten; %1 Dinge könnten besser sein.</translation>
    </message>
    <message>
        <source>Cohort can work here; 1 thing could be better.</source>
        <translation>Cohort kann hier arbeiten; 1 Ding könnte besser sein.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Everything Cohort needs is in place.</source>
        <translation>Alles, was Cohort braucht, ist vorhanden.</translation>
    </message>
    <message>
        <source>Fix this</source>
        <translation>Beheben</translation>
    </message>
    <message>
        <source>Look at this</source>
        <translation>Ansehen</translation>
    </message>
    <message>
        <source>Not needed here</source>
        <translation>Hier nicht nötig</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>The checks did not finish within a minute.</source>
        <translation>Die Prüfungen wurden nicht innerhalb einer Minute fertig.</translation>
    </message>
    <message>
        <source>cohortd could not be started (%1): %2</source>
        <translation>cohortd konnte nicht gestartet werden (%1): %2</translation>
    </message>
    <message>
        <source>cohortd stopped before its report was complete.</source>
        <translation>cohortd hat aufgehört, bevor sein Bericht vollständig war.</translation>
    </message>
    <message>
        <source>cohortd&apos;s report could not be read (%1).%2</source>
        <translation>Der Bericht von cohortd konnte nicht gelesen werden (%1).%2</translation>
    </message>
    <message>
        <source>cohortd, which runs the checks, was not found next to Cohort. Reinstall Cohort.</source>
        <translation>cohortd, das die Prüfungen ausführt, wurde neben Cohort nicht gefunden. Installieren Sie Cohort neu.</translation>
    </message>
</context>
<context>
    <name>cohort::EarningsChart</name>
    <message>
        <source>Confirmed</source>
        <translation>Bestätigt</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>Credits</translation>
    </message>
    <message>
        <source>%1 / hour</source>
        <translation>%1 / Stunde</translation>
    </message>
</context>
<context>
    <name>cohort::EarningsPage</name>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Save the hourly history as a spreadsheet file (times in UTC)</source>
        <translation>Den stündlichen Verlauf als Tabellendatei speichern (Zeiten in UTC)</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>Bestätigt</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Zurückgewiesen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Pending&lt;/b&gt; is work you have reported that the hub has not checked yet. &lt;b&gt;Confirmed&lt;/b&gt; is work the hub has verified and credited to this node. &lt;b&gt;Refused&lt;/b&gt; was accepted at first, then failed verification.</source>
        <translation>&lt;b&gt;Ausstehend&lt;/b&gt; ist gemeldete Arbeit, die der Hub noch nicht geprüft hat. &lt;b&gt;Bestätigt&lt;/b&gt; ist Arbeit, die der Hub verifiziert und diesem Knoten gutgeschrieben hat. &lt;b&gt;Zurückgewiesen&lt;/b&gt; wurde zunächst angenommen, hat die Verifizierung dann aber nicht bestanden.</translation>
    </message>
    <message>
        <source>No earnings yet — earnings appear here once your machine&apos;s work is verified by the hub.</source>
        <translation>Noch keine Erträge – sie erscheinen hier, sobald der Hub die Arbeit Ihres Computers verifiziert hat.</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Batches</translation>
    </message>
    <message>
        <source>Today %1 · 7 days %2</source>
        <translation>Heute %1 · 7 Tage %2</translation>
    </message>
    <message>
        <source>Last updated %1</source>
        <translation>Zuletzt aktualisiert: %1</translation>
    </message>
    <message>
        <source>The hub cannot be reached right now. These are the figures saved on this computer; they update when the hub answers again.</source>
        <translation>Der Hub ist gerade nicht erreichbar. Angezeigt werden die auf diesem Computer gespeicherten Zahlen; sie werden aktualisiert, sobald der Hub wieder antwortet.</translation>
    </message>
    <message>
        <source>Export earnings</source>
        <translation>Erträge exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message numerus="yes">
        <source>Saved %n hour(s) of history to %1</source>
        <translation>
            <numerusform>%n Stunde Verlauf in %1 gespeichert</numerusform>
            <numerusform>%n Stunden Verlauf in %1 gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <source>Energy: not read yet.</source>
        <translation>Energie: noch nicht gelesen.</translation>
    </message>
    <message>
        <source>No GPU power readings: the energy Cohort uses cannot be measured on this computer, so earnings are shown without its cost.</source>
        <translation>Keine GPU-Leistungswerte: Der Energieverbrauch von Cohort lässt sich auf diesem Computer nicht messen, daher werden die Erträge ohne Stromkosten angezeigt.</translation>
    </message>
    <message>
        <source>Energy used by the GPUs: today %1 · 7 days %2</source>
        <translation>Energieverbrauch der GPUs: heute %1 · 7 Tage %2</translation>
    </message>
    <message>
        <source>Set your electricity price in Settings › Account to see what it costs and your earnings net of it.</source>
        <translation>Legen Sie unter Einstellungen › Konto Ihren Strompreis fest, um die Kosten und Ihre Erträge abzüglich Strom zu sehen.</translation>
    </message>
    <message>
        <source>Electricity cost: today %1 · 7 days %2. Set what one credit is worth in Settings › Account to see earnings net of it.</source>
        <translation>Stromkosten: heute %1 · 7 Tage %2. Legen Sie unter Einstellungen › Konto fest, was ein Credit wert ist, um die Erträge abzüglich Strom zu sehen.</translation>
    </message>
    <message>
        <source>Earnings net of electricity: today %1 · 7 days %2 (electricity %3 over 7 days; earnings pending and confirmed, at %4 per credit)</source>
        <translation>Erträge abzüglich Strom: heute %1 · 7 Tage %2 (Strom %3 in 7 Tagen; ausstehende und bestätigte Erträge, zu %4 pro Credit)</translation>
    </message>
    <message>
        <source>No payout address yet: the hub credits this node&apos;s id. Add one in Settings, Account.</source>
        <translation>Noch keine Auszahlungsadresse: Der Hub schreibt der ID dieses Knotens gut. Lege eine unter Einstellungen, Konto fest.</translation>
    </message>
    <message>
        <source>The hub has no payout address on record yet; it receives %1 with the next heartbeat (within a minute).</source>
        <translation>Der Hub hat noch keine Auszahlungsadresse gespeichert; er erhält %1 mit dem nächsten Heartbeat (innerhalb einer Minute).</translation>
    </message>
    <message>
        <source>Paid to %1, the address the hub has on record.</source>
        <translation>Ausgezahlt an %1, die Adresse, die der Hub gespeichert hat.</translation>
    </message>
    <message>
        <source>The hub still has %1 on record; it removes it with the next heartbeat (within a minute).</source>
        <translation>Der Hub hat noch %1 gespeichert; er entfernt sie mit dem nächsten Heartbeat (innerhalb einer Minute).</translation>
    </message>
    <message>
        <source>The hub has %1 on record, not the address in Settings (%2); it takes the new one with the next heartbeat (within a minute).</source>
        <translation>Der Hub hat %1 gespeichert, nicht die Adresse aus den Einstellungen (%2); er übernimmt die neue mit dem nächsten Heartbeat (innerhalb einer Minute).</translation>
    </message>
</context>
<context>
    <name>cohort::Engine</name>
    <message>
        <source>The hub is training the task&apos;s first policy</source>
        <translation>Der Hub trainiert die erste Policy der Aufgabe</translation>
    </message>
    <message>
        <source>The hub stopped giving this node work: %1</source>
        <translation>Der Hub gibt diesem Knoten keine Arbeit mehr: %1</translation>
    </message>
    <message>
        <source>%1: generating rollouts with policy v%2</source>
        <translation>%1: erzeugt Rollouts mit Policy v%2</translation>
    </message>
    <message>
        <source>%1: waiting for the hub&apos;s trainer to take the next batch (%2 accepted so far)</source>
        <translation>%1: wartet, bis der Trainer des Hubs den nächsten Batch annimmt (bisher %2 angenommen)</translation>
    </message>
    <message>
        <source>%1: waiting for the first policy version</source>
        <translation>%1: wartet auf die erste Policy-Version</translation>
    </message>
    <message>
        <source>%1: policy v%2, %3 batches accepted</source>
        <translation>%1: Policy v%2, %3 Batches angenommen</translation>
    </message>
    <message>
        <source>, %1 waiting in the outbox</source>
        <translation>, %1 warten im Postausgang</translation>
    </message>
    <message>
        <source>Joined &quot;%1&quot;; the hub has no DiLoCo master for it</source>
        <translation>„%1“ beigetreten; der Hub hat dafür keinen DiLoCo-Master</translation>
    </message>
    <message>
        <source>Joined &quot;%1&quot; (DiLoCo); %2</source>
        <translation>„%1“ beigetreten (DiLoCo); %2</translation>
    </message>
    <message>
        <source>not training</source>
        <translation>kein Training</translation>
    </message>
    <message>
        <source>DiLoCo &quot;%1&quot;: joining the training ring</source>
        <translation>DiLoCo „%1“: tritt dem Trainingsring bei</translation>
    </message>
    <message>
        <source>DiLoCo &quot;%1&quot;: outer step %2, inner %3/%4, %5 peer(s)</source>
        <translation>DiLoCo „%1“: äußerer Schritt %2, innerer %3/%4, %5 Teilnehmer</translation>
    </message>
    <message>
        <source>, averaging</source>
        <translation>, mittelt</translation>
    </message>
    <message>
        <source>, syncing</source>
        <translation>, synchronisiert</translation>
    </message>
    <message>
        <source>, loss %1</source>
        <translation>, Loss %1</translation>
    </message>
    <message>
        <source>%1 v%2, %3 of %4</source>
        <translation>%1 v%2, %3 von %4</translation>
    </message>
    <message>
        <source> at %1/s</source>
        <translation> mit %1/s</translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation>, noch %1 s</translation>
    </message>
    <message>
        <source>Joined &quot;%1&quot;</source>
        <translation>„%1“ beigetreten</translation>
    </message>
    <message>
        <source>; checkpoint v%1 ready</source>
        <translation>; Checkpoint v%1 bereit</translation>
    </message>
    <message>
        <source>; checkpoint download failed, retrying later</source>
        <translation>; Checkpoint-Download fehlgeschlagen, neuer Versuch später</translation>
    </message>
    <message>
        <source>; this version cannot run %1 work yet</source>
        <translation>; diese Version kann %1-Arbeit noch nicht ausführen</translation>
    </message>
    <message>
        <source>, last mean reward %1%</source>
        <translation>, letzte mittlere Belohnung %1 %</translation>
    </message>
    <message>
        <source>None of the GPUs chosen in the settings is here (%1): Cohort computes on the CPU</source>
        <translation>Keine der in den Einstellungen gewählten GPUs ist vorhanden (%1): Cohort rechnet auf der CPU</translation>
    </message>
    <message>
        <source>%1: every GPU Cohort may use is paused or in use by another program</source>
        <translation>%1: jede GPU, die Cohort verwenden darf, ist pausiert oder wird von einem anderen Programm verwendet</translation>
    </message>
    <message>
        <source>%1: generating rollouts on %2 of %3 GPUs with policy v%4, %5 batches accepted</source>
        <translation>%1: erzeugt Rollouts auf %2 von %3 GPUs mit Policy v%4, %5 Batches angenommen</translation>
    </message>
    <message>
        <source> (1 GPU paused)</source>
        <translation> (1 GPU pausiert)</translation>
    </message>
    <message>
        <source> (%1 GPUs paused)</source>
        <translation> (%1 GPUs pausiert)</translation>
    </message>
</context>
<context>
    <name>cohort::GpuCard</name>
    <message>
        <source>% · °C</source>
        <translation>% · °C</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Utilization %</source>
        <translation>Auslastung %</translation>
    </message>
    <message>
        <source>VRAM %</source>
        <translation>VRAM %</translation>
    </message>
    <message>
        <source>Temperature °C</source>
        <translation>Temperatur °C</translation>
    </message>
    <message>
        <source>Power W</source>
        <translation>Leistung W</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1% busy</source>
        <translation>%1 % ausgelastet</translation>
    </message>
    <message>
        <source>utilization %1</source>
        <translation>Auslastung %1</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation>Temperatur %1</translation>
    </message>
    <message>
        <source>VRAM %1 of %2%3</source>
        <translation>VRAM %1 von %2%3</translation>
    </message>
    <message>
        <source>VRAM %1</source>
        <translation>VRAM %1</translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation>%1 W von %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>power %1</source>
        <translation>Leistung %1</translation>
    </message>
    <message>
        <source>clocks: SM %1, memory %2</source>
        <translation>Takt: SM %1, Speicher %2</translation>
    </message>
    <message>
        <source>%1 MHz</source>
        <translation>%1 MHz</translation>
    </message>
    <message>
        <source>fan %1%</source>
        <translation>Lüfter %1 %</translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation>nicht gelesen: %1</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1: %2</translation>
    </message>
    <message>
        <source>GPU %1: %2 (%3)</source>
        <translation>GPU %1: %2 (%3)</translation>
    </message>
    <message>
        <source>hours ago</source>
        <translation>vor Stunden</translation>
    </message>
    <message>
        <source>minutes ago</source>
        <translation>vor Minuten</translation>
    </message>
    <message>
        <source>Cohort computes on the CPU: its LibTorch cannot use this GPU</source>
        <translation>Cohort rechnet auf der CPU: seine LibTorch kann diese GPU nicht verwenden</translation>
    </message>
    <message>
        <source>Cohort does not compute on this GPU (Settings › Compute)</source>
        <translation>Cohort rechnet nicht auf dieser GPU (Einstellungen › Rechenleistung)</translation>
    </message>
    <message>
        <source>Cohort: paused on this GPU by you; the other devices keep working</source>
        <translation>Cohort: auf dieser GPU von Ihnen pausiert; die anderen Geräte arbeiten weiter</translation>
    </message>
    <message>
        <source>Cohort: waiting while %1 uses this GPU; the other devices keep working</source>
        <translation>Cohort: wartet, solange %1 diese GPU verwendet; die anderen Geräte arbeiten weiter</translation>
    </message>
    <message>
        <source>Cohort: generating</source>
        <translation>Cohort: erzeugt</translation>
    </message>
    <message>
        <source>Cohort: ready</source>
        <translation>Cohort: bereit</translation>
    </message>
    <message>
        <source>%L1 tokens/s</source>
        <translation>%L1 Token/s</translation>
    </message>
    <message>
        <source>may use %1 (%2 %)</source>
        <translation>darf %1 verwenden (%2 %)</translation>
    </message>
    <message>
        <source>1 batch accepted</source>
        <translation>1 Batch angenommen</translation>
    </message>
    <message>
        <source>%L1 batches accepted</source>
        <translation>%L1 Batches angenommen</translation>
    </message>
    <message>
        <source>Resume this GPU</source>
        <translation>Diese GPU fortsetzen</translation>
    </message>
    <message>
        <source>Pause this GPU</source>
        <translation>Diese GPU pausieren</translation>
    </message>
</context>
<context>
    <name>cohort::HeldOutChart</name>
    <message>
        <source>Correct, most likely answer</source>
        <translation>Richtig, wahrscheinlichste Antwort</translation>
    </message>
    <message>
        <source>Reward, sampled answers</source>
        <translation>Belohnung, gezogene Antworten</translation>
    </message>
    <message>
        <source>Model version</source>
        <translation>Modellversion</translation>
    </message>
    <message>
        <source>Held-out score by model version</source>
        <translation>Ergebnis auf zurückgehaltenen Aufgaben je Modellversion</translation>
    </message>
    <message>
        <source>Held-out loss (lower is better)</source>
        <translation>Verlust auf zurückgehaltenen Daten (niedriger ist besser)</translation>
    </message>
    <message>
        <source>Nats per byte</source>
        <translation>Nats pro Byte</translation>
    </message>
    <message>
        <source>Outer step</source>
        <translation>Äußerer Schritt</translation>
    </message>
</context>
<context>
    <name>cohort::MainWindow</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Check this &amp;computer…</source>
        <translation>Diesen &amp;Computer prüfen …</translation>
    </message>
    <message>
        <source>Check the hub, the clock, reachability by peers, disk, memory, the matrix library and the GPU, and say how to fix what is wrong</source>
        <translation>Hub, Uhr, Erreichbarkeit für andere Knoten, Speicherplatz, Arbeitsspeicher, Matrixbibliothek und GPU prüfen und sagen, wie sich Probleme beheben lassen</translation>
    </message>
    <message>
        <source>Cohort</source>
        <translation>Cohort</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Aufgaben</translation>
    </message>
    <message>
        <source>Earnings</source>
        <translation>Erträge</translation>
    </message>
    <message>
        <source>Activity</source>
        <translation>Aktivität</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Cohort</source>
        <translation>&amp;Cohort</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptleiste</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pausieren</translation>
    </message>
</context>
<context>
    <name>cohort::Notifier</name>
    <message>
        <source>Cohort has stopped working</source>
        <translation>Cohort arbeitet nicht mehr</translation>
    </message>
    <message>
        <source>Cohort cannot reach its hub</source>
        <translation>Cohort erreicht seinen Hub nicht</translation>
    </message>
    <message>
        <source>It keeps trying and resumes by itself.</source>
        <translation>Es versucht es weiter und setzt von selbst fort.</translation>
    </message>
    <message>
        <source>Cohort paused: not enough disk space</source>
        <translation>Cohort pausiert: nicht genug Speicherplatz</translation>
    </message>
    <message>
        <source>Free some space or raise the disk cap in Settings › Storage.</source>
        <translation>Geben Sie Speicherplatz frei oder erhöhen Sie das Speicherlimit unter Einstellungen › Speicher.</translation>
    </message>
    <message>
        <source>A model download failed</source>
        <translation>Ein Modell-Download ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>Cohort tries again later.</source>
        <translation>Cohort versucht es später erneut.</translation>
    </message>
    <message>
        <source>The hub refused a batch of work</source>
        <translation>Der Hub hat einen Batch abgelehnt</translation>
    </message>
    <message>
        <source>See the Activity page for details.</source>
        <translation>Details finden Sie auf der Seite „Aktivität“.</translation>
    </message>
    <message>
        <source>Model downloaded</source>
        <translation>Modell heruntergeladen</translation>
    </message>
    <message>
        <source>Version %1 of %2 is ready; work continues with it.</source>
        <translation>Version %1 von %2 ist bereit; die Arbeit wird damit fortgesetzt.</translation>
    </message>
    <message>
        <source>Work failed verification</source>
        <translation>Arbeit hat die Verifizierung nicht bestanden</translation>
    </message>
    <message>
        <source>The hub refused %1 %2 of work it had accepted. If this repeats, check the Activity page.</source>
        <translation>Der Hub hat %1 %2 für bereits angenommene Arbeit zurückgewiesen. Wenn sich das wiederholt, sehen Sie auf der Seite „Aktivität“ nach.</translation>
    </message>
    <message>
        <source>Your first work was verified</source>
        <translation>Ihre erste Arbeit wurde verifiziert</translation>
    </message>
    <message>
        <source>The hub confirmed %1 %2 for this computer.</source>
        <translation>Der Hub hat %1 %2 für diesen Computer bestätigt.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsAccountPage</name>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Node name</source>
        <translation>Knotenname</translation>
    </message>
    <message>
        <source>How this computer is shown to the hub&apos;s operator. Empty: the computer&apos;s name.</source>
        <translation>Wie dieser Computer dem Betreiber des Hubs angezeigt wird. Leer: der Name des Computers.</translation>
    </message>
    <message>
        <source>Node id</source>
        <translation>Knoten-ID</translation>
    </message>
    <message>
        <source>Known once the engine has started</source>
        <translation>Bekannt, sobald die Engine gestartet ist</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the node id</source>
        <translation>Knoten-ID kopieren</translation>
    </message>
    <message>
        <source>Export key…</source>
        <translation>Schlüssel exportieren…</translation>
    </message>
    <message>
        <source>Export the node key</source>
        <translation>Knotenschlüssel exportieren</translation>
    </message>
    <message>
        <source>Save a copy of this node&apos;s secret key, e.g. to move the node to another computer.</source>
        <translation>Eine Kopie des geheimen Schlüssels dieses Knotens speichern, z. B. um den Knoten auf einen anderen Computer umzuziehen.</translation>
    </message>
    <message>
        <source>Payout address</source>
        <translation>Auszahlungsadresse</translation>
    </message>
    <message>
        <source>Electricity price per kWh</source>
        <translation>Strompreis pro kWh</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>Nicht festgelegt</translation>
    </message>
    <message>
        <source> per kWh</source>
        <translation> pro kWh</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Währung</translation>
    </message>
    <message>
        <source>e.g. EUR</source>
        <translation>z. B. EUR</translation>
    </message>
    <message>
        <source>Value of one credit</source>
        <translation>Wert eines Credits</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>What one credit is worth to you, in the same currency. With it, the Earnings page shows earnings net of electricity; without it, only the electricity cost.</source>
        <translation>Was ein Credit für Sie wert ist, in derselben Währung. Mit diesem Wert zeigt die Seite „Erträge“ die Erträge abzüglich Strom, ohne ihn nur die Stromkosten.</translation>
    </message>
    <message>
        <source>This node</source>
        <translation>Dieser Knoten</translation>
    </message>
    <message>
        <source>Node name:</source>
        <translation>Knotenname:</translation>
    </message>
    <message>
        <source>Node id:</source>
        <translation>Knoten-ID:</translation>
    </message>
    <message>
        <source>Payout and energy</source>
        <translation>Auszahlung und Energie</translation>
    </message>
    <message>
        <source>Payout address:</source>
        <translation>Auszahlungsadresse:</translation>
    </message>
    <message>
        <source>Electricity price:</source>
        <translation>Strompreis:</translation>
    </message>
    <message>
        <source>One credit is worth:</source>
        <translation>Ein Credit ist wert:</translation>
    </message>
    <message>
        <source>Valid. With checksum: %1</source>
        <translation>Gültig. Mit Prüfsumme: %1</translation>
    </message>
    <message>
        <source>An Ethereum-style address: 0x and 40 hexadecimal digits. Mixed upper and lower case must match the address checksum (EIP-55); all lower or all upper case has none.</source>
        <translation>Eine Adresse im Ethereum-Format: 0x und 40 Hexadezimalziffern. Gemischte Groß- und Kleinschreibung muss der Prüfsumme der Adresse entsprechen (EIP-55); durchgehende Klein- oder Großschreibung hat keine.</translation>
    </message>
    <message>
        <source>There is no node key yet: it is created when the engine first starts.</source>
        <translation>Es gibt noch keinen Knotenschlüssel: Er wird beim ersten Start der Engine erstellt.</translation>
    </message>
    <message>
        <source>The node key is this node&apos;s identity: whoever has the file can act as this node and is credited its earnings. Keep the copy private (Cohort saves it readable by you only), and never send it to anyone, including support.

Export it now?</source>
        <translation>Der Knotenschlüssel ist die Identität dieses Knotens: Wer die Datei besitzt, kann als dieser Knoten auftreten und erhält dessen Erträge gutgeschrieben. Halten Sie die Kopie geheim (Cohort speichert sie nur für Sie lesbar) und senden Sie sie niemals an andere – auch nicht an den Support.

Jetzt exportieren?</translation>
    </message>
    <message>
        <source>Choose another place than the key file itself.</source>
        <translation>Wählen Sie einen anderen Speicherort als die Schlüsseldatei selbst.</translation>
    </message>
    <message>
        <source>Could not read the node key %1: %2</source>
        <translation>Der Knotenschlüssel %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Saved %1, but could not make it private: %2</source>
        <translation>%1 wurde gespeichert, konnte aber nicht privat gemacht werden: %2</translation>
    </message>
    <message>
        <source>Saved the node key to %1 (readable by you only).</source>
        <translation>Der Knotenschlüssel wurde in %1 gespeichert (nur für Sie lesbar).</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsComputePage</name>
    <message>
        <source>Compute</source>
        <translation>Rechenleistung</translation>
    </message>
    <message>
        <source>Use all GPUs, including ones added later</source>
        <translation>Alle GPUs verwenden, auch später hinzugefügte</translation>
    </message>
    <message>
        <source>GPUs Cohort may use</source>
        <translation>GPUs, die Cohort verwenden darf</translation>
    </message>
    <message>
        <source>Only when idle for</source>
        <translation>Nur nach Inaktivität von</translation>
    </message>
    <message>
        <source>Work only after this long without keyboard or mouse input, and stop as soon as you are back.</source>
        <translation>Erst nach so langer Zeit ohne Tastatur- oder Mauseingabe arbeiten und aufhören, sobald Sie zurück sind.</translation>
    </message>
    <message>
        <source>Work only when idle</source>
        <translation>Nur bei Inaktivität arbeiten</translation>
    </message>
    <message>
        <source> minutes</source>
        <translation> Minuten</translation>
    </message>
    <message>
        <source>Idle minutes</source>
        <translation>Minuten ohne Aktivität</translation>
    </message>
    <message>
        <source>Pause on battery power</source>
        <translation>Im Akkubetrieb pausieren</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>Any time, e.g. mon-fri 22:00-06:00; weekend 00:00-24:00</source>
        <translation>Jederzeit, z. B. mon-fri 22:00-06:00; weekend 00:00-24:00</translation>
    </message>
    <message>
        <source>Time windows when Cohort may work, separated by &apos;;&apos;. Days: mon … sun, ranges (mon-fri), daily, weekdays, weekend. A window ending before it starts runs past midnight.</source>
        <translation>Zeitfenster, in denen Cohort arbeiten darf, getrennt durch &apos;;&apos;. Tage (englisch): mon … sun, Bereiche (mon-fri), daily, weekdays, weekend. Ein Fenster, das vor seinem Beginn endet, läuft über Mitternacht hinaus.</translation>
    </message>
    <message>
        <source>Pause while a program runs full screen</source>
        <translation>Pausieren, während ein Programm im Vollbild läuft</translation>
    </message>
    <message>
        <source>A game, a film or a presentation in front pauses Cohort; it works again about 15 seconds after the program leaves full screen.</source>
        <translation>Ein Spiel, ein Film oder eine Präsentation im Vordergrund pausiert Cohort; es arbeitet etwa 15 Sekunden, nachdem das Programm das Vollbild verlassen hat, weiter.</translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation>Pausieren, während diese Programme laufen</translation>
    </message>
    <message>
        <source>Programs to pause for, e.g. steam; blender; Game.exe</source>
        <translation>Programme, für die pausiert wird, z. B. steam; blender; Game.exe</translation>
    </message>
    <message>
        <source>Program names separated by &apos;;&apos;, as the task manager shows them. While one of them runs, Cohort pauses; it works again about 15 seconds after the last one ends.</source>
        <translation>Programmnamen, getrennt durch &apos;;&apos;, wie der Task-Manager sie anzeigt. Solange eines davon läuft, pausiert Cohort; es arbeitet etwa 15 Sekunden nach dem Ende des letzten weiter.</translation>
    </message>
    <message>
        <source>Pause while another program uses the GPU</source>
        <translation>Pausieren, während ein anderes Programm die GPU nutzt</translation>
    </message>
    <message>
        <source>Another program computing on an NVIDIA GPU, or drawing there with 1 GiB of its memory or more (a game), pauses Cohort.</source>
        <translation>Ein anderes Programm, das auf einer NVIDIA-GPU rechnet oder dort mit 1 GiB ihres Speichers oder mehr zeichnet (ein Spiel), pausiert Cohort.</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>GPU temperature limit</source>
        <translation>GPU-Temperaturlimit</translation>
    </message>
    <message>
        <source>At this GPU temperature Cohort slows down (half, then a quarter of the time); 8 °C above it, it pauses. It speeds up again 5 °C below the limit.</source>
        <translation>Bei dieser GPU-Temperatur arbeitet Cohort langsamer (die Hälfte, dann ein Viertel der Zeit); 8 °C darüber pausiert es. 5 °C unter dem Limit arbeitet es wieder schneller.</translation>
    </message>
    <message>
        <source> W</source>
        <translation> W</translation>
    </message>
    <message>
        <source>GPU power limit</source>
        <translation>GPU-Leistungslimit</translation>
    </message>
    <message>
        <source>The most power the chosen GPUs may draw together; above it Cohort slows down.</source>
        <translation>Die maximale Leistung, die die gewählten GPUs zusammen aufnehmen dürfen; darüber arbeitet Cohort langsamer.</translation>
    </message>
    <message>
        <source> % of each GPU&apos;s memory</source>
        <translation> % des Speichers jeder GPU</translation>
    </message>
    <message>
        <source>GPU memory Cohort may use</source>
        <translation>GPU-Speicher, den Cohort verwenden darf</translation>
    </message>
    <message>
        <source>Cohort keeps the rest free for your games and other programs: its batches are generated in smaller parts to fit, and a task whose model does not fit is shown greyed on the Tasks page.</source>
        <translation>Cohort hält den Rest für Ihre Spiele und andere Programme frei: Batches werden passend in kleineren Teilen erzeugt, und eine Aufgabe, deren Modell nicht hineinpasst, wird auf der Seite „Aufgaben“ ausgegraut angezeigt.</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Use at most</source>
        <translation>Höchstens verwenden</translation>
    </message>
    <message>
        <source>When to work</source>
        <translation>Arbeitszeiten</translation>
    </message>
    <message>
        <source>Idle:</source>
        <translation>Inaktivität:</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>Zeitplan:</translation>
    </message>
    <message>
        <source>Battery:</source>
        <translation>Akku:</translation>
    </message>
    <message>
        <source>Other programs:</source>
        <translation>Andere Programme:</translation>
    </message>
    <message>
        <source>GPU temperature limit:</source>
        <translation>GPU-Temperaturlimit:</translation>
    </message>
    <message>
        <source>GPU power limit:</source>
        <translation>GPU-Leistungslimit:</translation>
    </message>
    <message>
        <source>Tick at least one GPU, or use all of them. To use none, pause Cohort.</source>
        <translation>Wählen Sie mindestens eine GPU aus oder verwenden Sie alle. Um keine zu verwenden, pausieren Sie Cohort.</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1: %2</translation>
    </message>
    <message>
        <source>%1 (not detected now)</source>
        <translation>%1 (derzeit nicht erkannt)</translation>
    </message>
    <message>
        <source>No GPUs detected (no NVIDIA driver answered). Cohort computes on the CPU; once GPUs are detected they are listed here.</source>
        <translation>Keine GPUs erkannt (kein NVIDIA-Treiber hat geantwortet). Cohort rechnet auf der CPU; sobald GPUs erkannt werden, erscheinen sie hier.</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Memory share</source>
        <translation>Speicheranteil</translation>
    </message>
    <message>
        <source>Cohort computes on each chosen GPU, one worker per GPU; a change applies at once. A GPU&apos;s own memory share replaces the share above for that GPU.</source>
        <translation>Cohort rechnet auf jeder gewählten GPU, ein Worker pro GPU; eine Änderung gilt sofort. Der eigene Speicheranteil einer GPU ersetzt für diese GPU den Anteil oben.</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>as above</source>
        <translation>wie oben</translation>
    </message>
    <message>
        <source>Memory share of %1</source>
        <translation>Speicheranteil von %1</translation>
    </message>
    <message>
        <source>The share of this GPU&apos;s memory Cohort may use, 10 to 100 %; &quot;as above&quot; uses the share for every GPU.</source>
        <translation>Der Anteil am Speicher dieser GPU, den Cohort verwenden darf, 10 bis 100 %; „wie oben“ verwendet den Anteil für alle GPUs.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsDialog</name>
    <message>
        <source>Cohort Settings</source>
        <translation>Cohort-Einstellungen</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Einstellungsseiten</translation>
    </message>
    <message>
        <source>Changing the hub, the node name, the data folder or the download limit restarts the engine.</source>
        <translation>Eine Änderung von Hub, Knotenname, Datenordner oder Download-Limit startet die Engine neu.</translation>
    </message>
    <message>
        <source>Move the data folder to</source>
        <translation>Datenordner verschieben nach</translation>
    </message>
    <message>
        <source>Export the node key</source>
        <translation>Knotenschlüssel exportieren</translation>
    </message>
    <message>
        <source>Key files (*.key);;All files (*)</source>
        <translation>Schlüsseldateien (*.key);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsGeneralPage</name>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Systemstandard</translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation>Systemstandard (%1)</translation>
    </message>
    <message>
        <source>Start minimized to the notification area</source>
        <translation>Minimiert im Infobereich starten</translation>
    </message>
    <message>
        <source>Start Cohort when I log in</source>
        <translation>Cohort bei der Anmeldung starten</translation>
    </message>
    <message>
        <source>Starting at login is not available on this system.</source>
        <translation>Der Start bei der Anmeldung ist auf diesem System nicht verfügbar.</translation>
    </message>
    <message>
        <source>Managed by the system: %1</source>
        <translation>Vom System verwaltet: %1</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>Nur Fehler</translation>
    </message>
    <message>
        <source>Errors and milestones</source>
        <translation>Fehler und Meilensteine</translation>
    </message>
    <message>
        <source>Errors: Cohort stopped, lost its hub, ran out of disk space or had work refused.
Milestones: your first verified work, a model download finished.
At most one message of each kind every 15 minutes.</source>
        <translation>Fehler: Cohort wurde beendet, hat die Verbindung zum Hub verloren, hat keinen Speicherplatz mehr oder Arbeit wurde zurückgewiesen.
Meilensteine: Ihre erste verifizierte Arbeit, ein abgeschlossener Modell-Download.
Höchstens eine Meldung jeder Art alle 15 Minuten.</translation>
    </message>
    <message>
        <source>Tray icon</source>
        <translation>Tray-Symbol</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>Farbig</translation>
    </message>
    <message>
        <source>Monochrome, light (for dark panels)</source>
        <translation>Einfarbig, hell (für dunkle Leisten)</translation>
    </message>
    <message>
        <source>Monochrome, dark (for light panels)</source>
        <translation>Einfarbig, dunkel (für helle Leisten)</translation>
    </message>
    <message>
        <source>Each state keeps its own symbol in every style, so they stay apart without colour.</source>
        <translation>Jeder Zustand behält in jedem Stil sein eigenes Zeichen, so bleiben sie auch ohne Farbe unterscheidbar.</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>A new language applies the next time Cohort starts.</source>
        <translation>Eine neue Sprache gilt ab dem nächsten Start von Cohort.</translation>
    </message>
    <message>
        <source>Start:</source>
        <translation>Start:</translation>
    </message>
    <message>
        <source>Notifications:</source>
        <translation>Benachrichtigungen:</translation>
    </message>
    <message>
        <source>Tray icon:</source>
        <translation>Tray-Symbol:</translation>
    </message>
    <message>
        <source>There is no notification area right now, so the window opens at start even when this is ticked, and notifications cannot be shown.</source>
        <translation>Derzeit ist kein Infobereich vorhanden. Daher öffnet sich das Fenster beim Start auch dann, wenn dies aktiviert ist, und Benachrichtigungen können nicht angezeigt werden.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsNetworkPage</name>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Hub address</source>
        <translation>Hub-Adresse</translation>
    </message>
    <message>
        <source>Empty: run a local network on this computer</source>
        <translation>Leer: ein lokales Netzwerk auf diesem Computer betreiben</translation>
    </message>
    <message>
        <source>The address of the hub that hands out work, e.g. https://hub.example.org.
Leave it empty to try Cohort with a small network that runs on this computer.</source>
        <translation>Die Adresse des Hubs, der die Arbeit verteilt, z. B. https://hub.example.org.
Lassen Sie das Feld leer, um Cohort mit einem kleinen Netzwerk auszuprobieren, das auf diesem Computer läuft.</translation>
    </message>
    <message>
        <source>Hub certificate</source>
        <translation>Hub-Zertifikat</translation>
    </message>
    <message>
        <source>Empty: trust the system&apos;s certificate authorities</source>
        <translation>Leer: den Zertifizierungsstellen des Systems vertrauen</translation>
    </message>
    <message>
        <source>For a hub whose https certificate no public authority signed: a PEM file with the hub&apos;s certificate (or its private authority&apos;s), from the hub&apos;s operator.</source>
        <translation>Für einen Hub, dessen https-Zertifikat keine öffentliche Stelle signiert hat: eine PEM-Datei mit dem Zertifikat des Hubs (oder seiner privaten Stelle), vom Betreiber des Hubs.</translation>
    </message>
    <message>
        <source>Hub key</source>
        <translation>Hub-Schlüssel</translation>
    </message>
    <message>
        <source>Empty: trust the key the hub presents the first time</source>
        <translation>Leer: dem Schlüssel vertrauen, den der Hub beim ersten Mal zeigt</translation>
    </message>
    <message>
        <source>The hub&apos;s public key, as its operator publishes it (44 characters). With it, this computer talks only to the real hub, even the first time it connects.</source>
        <translation>Der öffentliche Schlüssel des Hubs, wie sein Betreiber ihn veröffentlicht (44 Zeichen). Damit spricht dieser Computer nur mit dem echten Hub, auch bei der ersten Verbindung.</translation>
    </message>
    <message>
        <source> KiB/s</source>
        <translation> KiB/s</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>Download limit</source>
        <translation>Download-Limit</translation>
    </message>
    <message>
        <source>The most bandwidth model downloads may use. 0: no limit.</source>
        <translation>Die maximale Bandbreite für Modell-Downloads. 0: kein Limit.</translation>
    </message>
    <message>
        <source>Upload limit</source>
        <translation>Upload-Limit</translation>
    </message>
    <message>
        <source>The most bandwidth uploads to other computers may use: DiLoCo training traffic to the other nodes of its ring. Applies at once. 0: no limit.</source>
        <translation>Die maximale Bandbreite für Uploads zu anderen Computern: DiLoCo-Trainingsverkehr zu den anderen Knoten des Rings. Gilt sofort. 0: kein Limit.</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>Proxy</translation>
    </message>
    <message>
        <source>No proxy</source>
        <translation>Kein Proxy</translation>
    </message>
    <message>
        <source>Use the system&apos;s proxy settings</source>
        <translation>Proxy-Einstellungen des Systems verwenden</translation>
    </message>
    <message>
        <source>Manual HTTP proxy</source>
        <translation>Manueller HTTP-Proxy</translation>
    </message>
    <message>
        <source>Proxy address</source>
        <translation>Proxy-Adresse</translation>
    </message>
    <message>
        <source>host:port, e.g. proxy.example.org:3128</source>
        <translation>host:port, z. B. proxy.example.org:3128</translation>
    </message>
    <message>
        <source>Hub address:</source>
        <translation>Hub-Adresse:</translation>
    </message>
    <message>
        <source>Hub certificate:</source>
        <translation>Hub-Zertifikat:</translation>
    </message>
    <message>
        <source>Hub key:</source>
        <translation>Hub-Schlüssel:</translation>
    </message>
    <message>
        <source>Download limit:</source>
        <translation>Download-Limit:</translation>
    </message>
    <message>
        <source>Upload limit:</source>
        <translation>Upload-Limit:</translation>
    </message>
    <message>
        <source>Proxy:</source>
        <translation>Proxy:</translation>
    </message>
    <message>
        <source>Proxy address:</source>
        <translation>Proxy-Adresse:</translation>
    </message>
    <message>
        <source>The proxy applies to new connections at once; connections to this computer (the local network) never use it.</source>
        <translation>Der Proxy gilt sofort für neue Verbindungen; Verbindungen zu diesem Computer (dem lokalen Netzwerk) verwenden ihn nie.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsStoragePage</name>
    <message>
        <source>Storage</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>Where the node keeps its identity key, downloaded models and history. Changing it here starts over in that folder; use Move… to take the data along.</source>
        <translation>Hier speichert der Knoten seinen Identitätsschlüssel, heruntergeladene Modelle und den Verlauf. Eine Änderung an dieser Stelle beginnt in dem Ordner von vorn; mit „Verschieben…“ nehmen Sie die Daten mit.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Choose another data folder</source>
        <translation>Anderen Datenordner wählen</translation>
    </message>
    <message>
        <source>Move…</source>
        <translation>Verschieben…</translation>
    </message>
    <message>
        <source>Move the data folder</source>
        <translation>Datenordner verschieben</translation>
    </message>
    <message>
        <source>Copy the data to another folder, check every file, switch to it, then delete the old copy.</source>
        <translation>Die Daten in einen anderen Ordner kopieren, jede Datei prüfen, zu ihm wechseln und dann die alte Kopie löschen.</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>No cap</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>Disk space cap</source>
        <translation>Speicherlimit</translation>
    </message>
    <message>
        <source>The most space Cohort&apos;s data folder may use; at the cap it pauses and says so.</source>
        <translation>Der maximale Speicherplatz für den Datenordner von Cohort; beim Erreichen des Limits pausiert es und meldet dies.</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>Datenordner:</translation>
    </message>
    <message>
        <source>Move… takes the node key, models and history along. Typing or browsing to another folder instead starts over there, with a new node key.</source>
        <translation>„Verschieben…“ nimmt Knotenschlüssel, Modelle und Verlauf mit. Wenn Sie stattdessen einen anderen Ordner eingeben oder auswählen, beginnt Cohort dort von vorn, mit einem neuen Knotenschlüssel.</translation>
    </message>
    <message>
        <source>Disk space cap:</source>
        <translation>Speicherlimit:</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>Datenordner wählen</translation>
    </message>
    <message>
        <source>Move Cohort&apos;s data from
%1
to
%2?

Cohort stops working while it copies the files and checks every copy, then switches to the new folder. The old files are deleted only after that succeeded.</source>
        <translation>Daten von Cohort von
%1
nach
%2 verschieben?

Cohort unterbricht die Arbeit, während es die Dateien kopiert und jede Kopie prüft, und wechselt dann in den neuen Ordner. Die alten Dateien werden erst gelöscht, wenn das gelungen ist.</translation>
    </message>
    <message>
        <source>Copying and checking: %1 of %2…</source>
        <translation>Kopieren und Prüfen: %1 von %2…</translation>
    </message>
    <message>
        <source>Stopping the engine…</source>
        <translation>Engine wird angehalten…</translation>
    </message>
    <message>
        <source>Copying and checking…</source>
        <translation>Kopieren und Prüfen…</translation>
    </message>
    <message>
        <source>Moved to %1.</source>
        <translation>Nach %1 verschoben.</translation>
    </message>
    <message numerus="yes">
        <source>Moved to %1. %n item(s) in the old folder were not Cohort&apos;s or could not be deleted and were left there.</source>
        <translation>
            <numerusform>Nach %1 verschoben. %n Element im alten Ordner gehörte nicht zu Cohort oder konnte nicht gelöscht werden und wurde dort belassen.</numerusform>
            <numerusform>Nach %1 verschoben. %n Elemente im alten Ordner gehörten nicht zu Cohort oder konnten nicht gelöscht werden und wurden dort belassen.</numerusform>
        </translation>
    </message>
    <message>
        <source>The data folder was not moved: %1</source>
        <translation>Der Datenordner wurde nicht verschoben: %1</translation>
    </message>
</context>
<context>
    <name>cohort::TasksPage</name>
    <message>
        <source>Tasks offered by the hub. Pick one to lend this computer to it.</source>
        <translation>Vom Hub angebotene Aufgaben. Wählen Sie eine aus, um diesen Computer dafür bereitzustellen.</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Belohnung</translation>
    </message>
    <message>
        <source>Needs</source>
        <translation>Anforderungen</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Beitreten</translation>
    </message>
    <message>
        <source>Leave</source>
        <translation>Verlassen</translation>
    </message>
    <message>
        <source>Joined</source>
        <translation>Beigetreten</translation>
    </message>
    <message>
        <source>Not part of any task yet.</source>
        <translation>Noch an keiner Aufgabe beteiligt.</translation>
    </message>
    <message>
        <source>Joined: %1</source>
        <translation>Beigetreten: %1</translation>
    </message>
    <message>
        <source>Waiting for the hub&apos;s list of tasks…</source>
        <translation>Warten auf die Aufgabenliste des Hubs…</translation>
    </message>
    <message>
        <source>Select a task to read what it does.</source>
        <translation>Wählen Sie eine Aufgabe aus, um zu lesen, was sie tut.</translation>
    </message>
    <message>
        <source>Needs: %1. Reward: %2.</source>
        <translation>Anforderungen: %1. Belohnung: %2.</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Dieser Computer</translation>
    </message>
    <message>
        <source>On this computer: %1</source>
        <translation>Auf diesem Computer: %1</translation>
    </message>
    <message>
        <source>This hub also offers %1 tasks, which this version of Cohort cannot run. A newer version of Cohort may; the other tasks work as they are.</source>
        <translation>Dieser Hub bietet auch %1-Aufgaben an, die diese Cohort-Version nicht ausführen kann. Eine neuere Version kann es vielleicht; die übrigen Aufgaben funktionieren wie gewohnt.</translation>
    </message>
    <message>
        <source>This computer cannot run %1: %2.</source>
        <translation>Dieser Computer kann %1 nicht ausführen: %2.</translation>
    </message>
    <message>
        <source>Contributors with accepted work: %1; none of this computer&apos;s is accepted yet.</source>
        <translation>Beitragende mit angenommener Arbeit: %1; von diesem Computer ist noch nichts angenommen.</translation>
    </message>
    <message>
        <source>Your part: accepted batches %1 (%2 % of all), rank %3 of %4 contributors.</source>
        <translation>Ihr Anteil: %1 angenommene Stapel (%2 % von allen), Rang %3 von %4 Beitragenden.</translation>
    </message>
    <message>
        <source>The network&apos;s model on %1 held-out problems (never trained on): version %2 answers %3 % correctly, version %4 answered %5 %.</source>
        <translation>Das Modell des Netzwerks auf %1 zurückgehaltenen Aufgaben (nie trainiert): Version %2 beantwortet %3 % richtig, Version %4 beantwortete %5 %.</translation>
    </message>
    <message>
        <source>The network&apos;s model on %1 held-out sentences (never trained on): loss %2 at outer step %3, %4 at outer step %5.</source>
        <translation>Das Modell des Netzwerks auf %1 zurückgehaltenen Sätzen (nie darauf trainiert): Verlust %2 bei äußerem Schritt %3, %4 bei äußerem Schritt %5.</translation>
    </message>
</context>
<context>
    <name>cohort::TrayIcon</name>
    <message>
        <source>Open Cohort</source>
        <translation>Cohort öffnen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Pause after this batch</source>
        <translation>Nach diesem Batch pausieren</translation>
    </message>
    <message>
        <source>Snooze</source>
        <translation>Vorübergehend pausieren</translation>
    </message>
    <message>
        <source>For 15 minutes</source>
        <translation>Für 15 Minuten</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>Für 1 Stunde</translation>
    </message>
    <message>
        <source>Until tomorrow</source>
        <translation>Bis morgen</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Cohort — %1</source>
        <translation>Cohort – %1</translation>
    </message>
    <message>
        <source> · today %1 credits</source>
        <translation> · heute %1 Credits</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message numerus="yes">
        <source>Pause now (drops %n s of work in hand)</source>
        <translation>
            <numerusform>Jetzt pausieren (verwirft %n s laufende Arbeit)</numerusform>
            <numerusform>Jetzt pausieren (verwirft %n s laufende Arbeit)</numerusform>
        </translation>
    </message>
    <message>
        <source>Pausing after this batch…</source>
        <translation>Pause nach diesem Batch…</translation>
    </message>
</context>
<context>
    <name>cohort::WelcomeDialog</name>
    <message>
        <source>Welcome to Cohort</source>
        <translation>Willkommen bei Cohort</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Cohort lends this computer to train AI models together with other people.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;While it works, it uses your GPU (or CPU) to generate and check training data for the network you chose, and shows what it did and what it earned. It reads nothing else on this computer and sends only that work, the computer&apos;s state and its hardware summary.&lt;/p&gt;&lt;p&gt;It works only when you allow it: pause it from the tray at any time, and choose below when it may work. Every choice can be changed later in Settings.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Cohort stellt diesen Computer bereit, um gemeinsam mit anderen Menschen KI-Modelle zu trainieren.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Während es arbeitet, nutzt es Ihre GPU (oder CPU), um Trainingsdaten für das gewählte Netzwerk zu erzeugen und zu prüfen, und zeigt an, was es getan und verdient hat. Es liest nichts anderes auf diesem Computer und sendet nur diese Arbeit, den Zustand des Computers und eine Übersicht seiner Hardware.&lt;/p&gt;&lt;p&gt;Es arbeitet nur, wenn Sie es erlauben: Pausieren Sie es jederzeit über das Symbol im Infobereich, und legen Sie unten fest, wann es arbeiten darf. Alle Einstellungen lassen sich später unter „Einstellungen“ ändern.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Start Cohort when I log in</source>
        <translation>Cohort bei der Anmeldung starten</translation>
    </message>
    <message>
        <source>Work only when nobody uses this computer</source>
        <translation>Nur arbeiten, wenn niemand diesen Computer nutzt</translation>
    </message>
    <message>
        <source>Pause on battery power</source>
        <translation>Im Akkubetrieb pausieren</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>Cohort slows down at this GPU temperature and pauses 8 °C above it.</source>
        <translation>Cohort arbeitet ab dieser GPU-Temperatur langsamer und pausiert 8 °C darüber.</translation>
    </message>
    <message>
        <source>GPU temperature limit:</source>
        <translation>GPU-Temperaturlimit:</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Nicht jetzt</translation>
    </message>
    <message>
        <source>“Start” begins with the first of the network&apos;s tasks that this computer can run. Choose another on the Tasks page at any time.</source>
        <translation>„Starten“ beginnt mit der ersten Aufgabe des Netzwerks, die dieser Computer ausführen kann. Auf der Seite „Aufgaben“ können Sie jederzeit eine andere wählen.</translation>
    </message>
</context>
<context>
    <name>cohort::display</name>
    <message>
        <source>measuring…</source>
        <translation>wird gemessen…</translation>
    </message>
    <message>
        <source>%1 of 1 core</source>
        <translation>%1 von 1 Kern</translation>
    </message>
    <message>
        <source>%1 of %2 cores</source>
        <translation>%1 von %2 Kernen</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation>%1 von %2 (%3 %)</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Local network (embedded)</source>
        <translation>Lokales Netzwerk (integriert)</translation>
    </message>
    <message>
        <source>Local network (embedded) at %1</source>
        <translation>Lokales Netzwerk (integriert) unter %1</translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation>noch nicht verbunden</translation>
    </message>
    <message>
        <source>RL rollouts</source>
        <translation>RL-Rollouts</translation>
    </message>
    <message>
        <source>DiLoCo training</source>
        <translation>DiLoCo-Training</translation>
    </message>
    <message>
        <source>RL</source>
        <translation>RL</translation>
    </message>
    <message>
        <source>DiLoCo</source>
        <translation>DiLoCo</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>Credits</translation>
    </message>
    <message>
        <source>%1 %2 / verified step</source>
        <translation>%1 %2 pro verifiziertem Schritt</translation>
    </message>
    <message>
        <source>%1 %2 / 1k verified tokens</source>
        <translation>%1 %2 pro 1.000 verifizierte Token</translation>
    </message>
    <message>
        <source>1+ CPU core</source>
        <translation>1+ CPU-Kern</translation>
    </message>
    <message>
        <source>%1+ CPU cores</source>
        <translation>%1+ CPU-Kerne</translation>
    </message>
    <message>
        <source>%1 RAM</source>
        <translation>%1 RAM</translation>
    </message>
    <message>
        <source>GPU (%1)</source>
        <translation>GPU (%1)</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>no GPU needed</source>
        <translation>keine GPU nötig</translation>
    </message>
    <message>
        <source>%1 disk</source>
        <translation>%1 Speicherplatz</translation>
    </message>
    <message>
        <source>1+ core</source>
        <translation>1+ Kern</translation>
    </message>
    <message>
        <source>%1+ cores</source>
        <translation>%1+ Kerne</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
</context>
</TS>
