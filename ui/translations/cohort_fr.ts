<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>EngineController</name>
    <message>
        <source>Loading the compute engine</source>
        <translation>Chargement du moteur de calcul</translation>
    </message>
    <message>
        <source>Cohort cannot work: %1</source>
        <translation>Cohort ne peut pas travailler : %1</translation>
    </message>
</context>
<context>
    <name>EngineEvent</name>
    <message>
        <source>Lifecycle</source>
        <translation>Cycle de vie</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>Hub</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Point de contrôle</translation>
    </message>
    <message>
        <source>Rollouts</source>
        <translation>Rollouts</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Calcul</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Horaires</translation>
    </message>
    <message>
        <source>DiLoCo</source>
        <translation>DiLoCo</translation>
    </message>
    <message>
        <source>Earnings</source>
        <translation>Gains</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>Mise à jour</translation>
    </message>
    <message>
        <source>Control</source>
        <translation>Contrôle</translation>
    </message>
</context>
<context>
    <name>MemoryBudget</name>
    <message>
        <source>needs %1 GB of GPU memory for one sequence; Cohort may use %2 GB of this GPU (Settings, Compute)</source>
        <translation>nécessite %1 Go de mémoire GPU pour une séquence ; Cohort peut utiliser %2 Go de ce GPU (Paramètres, Calcul)</translation>
    </message>
</context>
<context>
    <name>NodeState</name>
    <message>
        <source>Starting</source>
        <translation>Démarrage</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Connexion</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Inactif</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>Téléchargement</translation>
    </message>
    <message>
        <source>Syncing</source>
        <translation>Synchronisation</translation>
    </message>
    <message>
        <source>Throttled</source>
        <translation>Ralenti</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>En pause</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Hors ligne</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erreur</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Arrêt</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Inconnu</translation>
    </message>
    <message>
        <source>paused by you</source>
        <translation>mis en pause par vous</translation>
    </message>
    <message>
        <source>the disk is almost full</source>
        <translation>le disque est presque plein</translation>
    </message>
    <message>
        <source>the GPU is above your temperature limit</source>
        <translation>le GPU dépasse votre limite de température</translation>
    </message>
    <message>
        <source>the power limit is reached</source>
        <translation>la limite de puissance est atteinte</translation>
    </message>
    <message>
        <source>the computer is on battery power</source>
        <translation>l&apos;ordinateur est sur batterie</translation>
    </message>
    <message>
        <source>outside your schedule</source>
        <translation>en dehors de votre horaire</translation>
    </message>
    <message>
        <source>the computer is in use</source>
        <translation>l&apos;ordinateur est utilisé</translation>
    </message>
    <message>
        <source>snoozed</source>
        <translation>en sommeil</translation>
    </message>
    <message>
        <source>Finishing up and shutting down</source>
        <translation>Finalisation et arrêt</translation>
    </message>
    <message>
        <source>Starting the engine</source>
        <translation>Démarrage du moteur</translation>
    </message>
    <message>
        <source>retrying in %1 s</source>
        <translation>nouvel essai dans %1 s</translation>
    </message>
    <message>
        <source>retrying now</source>
        <translation>nouvel essai maintenant</translation>
    </message>
    <message>
        <source>Cannot reach the hub; %1</source>
        <translation>Hub injoignable ; %1</translation>
    </message>
    <message>
        <source>Cannot reach the hub (%1); %2</source>
        <translation>Hub injoignable (%1) ; %2</translation>
    </message>
    <message>
        <source>Registering with the hub</source>
        <translation>Inscription auprès du hub</translation>
    </message>
    <message>
        <source>Working slower because %1</source>
        <translation>Travaille plus lentement car %1</translation>
    </message>
    <message>
        <source>Downloading the model</source>
        <translation>Téléchargement du modèle</translation>
    </message>
    <message>
        <source>Synchronising with other contributors</source>
        <translation>Synchronisation avec les autres contributeurs</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>Au travail</translation>
    </message>
    <message>
        <source>Connected; no task joined</source>
        <translation>Connecté ; aucune tâche rejointe</translation>
    </message>
    <message>
        <source>another program needs the computer</source>
        <translation>un autre programme a besoin de l&apos;ordinateur</translation>
    </message>
    <message>
        <source>A full-screen program is running (%1)</source>
        <translation>Un programme en plein écran est en cours (%1)</translation>
    </message>
    <message>
        <source>A full-screen program is running</source>
        <translation>Un programme en plein écran est en cours</translation>
    </message>
    <message>
        <source>A program on your list is running (%1)</source>
        <translation>Un programme de votre liste est en cours (%1)</translation>
    </message>
    <message>
        <source>Another program uses the GPU (%1)</source>
        <translation>Un autre programme utilise le GPU (%1)</translation>
    </message>
    <message>
        <source>Another program uses the GPU</source>
        <translation>Un autre programme utilise le GPU</translation>
    </message>
</context>
<context>
    <name>ScheduleWindow</name>
    <message>
        <source>schedule &apos;%1&apos;: %2</source>
        <translation>plage horaire « %1 » : %2</translation>
    </message>
    <message>
        <source>expected days and hours, e.g. &quot;mon-fri 22:00-06:00&quot;</source>
        <translation>jours et heures attendus, par exemple « mon-fri 22:00-06:00 »</translation>
    </message>
    <message>
        <source>unknown day range &apos;%1&apos;</source>
        <translation>plage de jours inconnue « %1 »</translation>
    </message>
    <message>
        <source>unknown day &apos;%1&apos; (use mon, tue, ..., sun, daily, weekdays, weekend)</source>
        <translation>jour inconnu « %1 » (utilisez mon, tue, ..., sun, daily, weekdays, weekend)</translation>
    </message>
    <message>
        <source>hours must be 00:00-24:00</source>
        <translation>les heures doivent être comprises entre 00:00 et 24:00</translation>
    </message>
    <message>
        <source>no days</source>
        <translation>aucun jour</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Enter an http:// or https:// address, or leave it empty for the local network.</source>
        <translation>Saisissez une adresse http:// ou https://, ou laissez le champ vide pour le réseau local.</translation>
    </message>
    <message>
        <source>The address has no host name.</source>
        <translation>L&apos;adresse n&apos;a pas de nom d&apos;hôte.</translation>
    </message>
    <message>
        <source>Do not put a user name or password in the address.</source>
        <translation>Ne mettez ni nom d&apos;utilisateur ni mot de passe dans l&apos;adresse.</translation>
    </message>
    <message>
        <source>The address must not contain &apos;?&apos; or &apos;#&apos;.</source>
        <translation>L&apos;adresse ne doit contenir ni « ? » ni « # ».</translation>
    </message>
    <message>
        <source>Choose a full path (an absolute folder).</source>
        <translation>Choisissez un chemin complet (un dossier absolu).</translation>
    </message>
    <message>
        <source>This path is a file, not a folder.</source>
        <translation>Ce chemin est un fichier, pas un dossier.</translation>
    </message>
    <message>
        <source>This folder is not writable.</source>
        <translation>Ce dossier n&apos;est pas accessible en écriture.</translation>
    </message>
    <message>
        <source>Use 0 (no limit) up to %1 KiB/s.</source>
        <translation>Utilisez 0 (aucune limite) jusqu&apos;à %1 Kio/s.</translation>
    </message>
    <message>
        <source>Use 1 to 240 minutes.</source>
        <translation>Utilisez 1 à 240 minutes.</translation>
    </message>
    <message>
        <source>Use at most 28 time windows.</source>
        <translation>Utilisez au plus 28 plages horaires.</translation>
    </message>
    <message>
        <source>Use 0 (no limit) or 50 to 100 °C.</source>
        <translation>Utilisez 0 (aucune limite) ou 50 à 100 °C.</translation>
    </message>
    <message>
        <source>Use 0 (no limit) or 10 to 2000 W.</source>
        <translation>Utilisez 0 (aucune limite) ou 10 à 2000 W.</translation>
    </message>
    <message>
        <source>Use 0 (no cap) up to 1000000 GiB.</source>
        <translation>Utilisez 0 (aucune limite) jusqu&apos;à 1000000 Gio.</translation>
    </message>
    <message>
        <source>Choose one of the languages offered.</source>
        <translation>Choisissez l&apos;une des langues proposées.</translation>
    </message>
    <message>
        <source>Choose at most %1 GPUs.</source>
        <translation>Choisissez au plus %1 GPU.</translation>
    </message>
    <message>
        <source>A GPU in the list has no usable identifier.</source>
        <translation>Un GPU de la liste n&apos;a pas d&apos;identifiant utilisable.</translation>
    </message>
    <message>
        <source>Use 10 to 100 % of each GPU&apos;s memory.</source>
        <translation>Utilisez 10 à 100 % de la mémoire de chaque GPU.</translation>
    </message>
    <message>
        <source>The proxy address is not readable.</source>
        <translation>L&apos;adresse du proxy n&apos;est pas lisible.</translation>
    </message>
    <message>
        <source>The certificate&apos;s file name is not readable.</source>
        <translation>Le nom du fichier du certificat n&apos;est pas lisible.</translation>
    </message>
    <message>
        <source>There is no file %1.</source>
        <translation>Il n&apos;y a pas de fichier %1.</translation>
    </message>
    <message>
        <source>The file holds no PEM certificate.</source>
        <translation>Le fichier ne contient aucun certificat PEM.</translation>
    </message>
    <message>
        <source>A hub key is 44 characters of base64 (an ed25519 public key), as the hub prints it at start.</source>
        <translation>Une clé de hub fait 44 caractères en base64 (une clé publique ed25519), telle que le hub l&apos;affiche au démarrage.</translation>
    </message>
    <message>
        <source>Use 0 (not set) up to 100 per kWh.</source>
        <translation>Utilisez 0 (non défini) jusqu&apos;à 100 par kWh.</translation>
    </message>
    <message>
        <source>Use 0 (unknown) up to 1000000.</source>
        <translation>Utilisez 0 (inconnue) jusqu&apos;à 1000000.</translation>
    </message>
    <message>
        <source>Use a short label of at most 8 characters, e.g. EUR.</source>
        <translation>Utilisez un libellé court d&apos;au plus 8 caractères, par ex. EUR.</translation>
    </message>
    <message>
        <source>Name the currency of the price, e.g. EUR.</source>
        <translation>Indiquez la devise du prix, par ex. EUR.</translation>
    </message>
    <message>
        <source>Use at most 64 characters.</source>
        <translation>Utilisez au plus 64 caractères.</translation>
    </message>
    <message>
        <source>Use printable characters only.</source>
        <translation>Utilisez uniquement des caractères imprimables.</translation>
    </message>
    <message>
        <source>List at most %1 programs.</source>
        <translation>Indiquez au plus %1 programmes.</translation>
    </message>
    <message>
        <source>A program in the list has no usable name.</source>
        <translation>Un programme de la liste n&apos;a pas de nom utilisable.</translation>
    </message>
    <message>
        <source>Give a memory share of its own to at most %1 GPUs.</source>
        <translation>Donnez une part de mémoire propre à %1 GPU au plus.</translation>
    </message>
    <message>
        <source>Give each GPU 10 to 100 % of its memory.</source>
        <translation>Donnez à chaque GPU de 10 à 100 % de sa mémoire.</translation>
    </message>
    <message>
        <source>Enter the proxy as host:port, e.g. proxy.example.org:3128.</source>
        <translation>Saisissez le proxy sous la forme hôte:port, par exemple proxy.example.org:3128.</translation>
    </message>
    <message>
        <source>The port must be a number from 1 to 65535.</source>
        <translation>Le port doit être un nombre de 1 à 65535.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name or address.</source>
        <translation>« %1 » n&apos;est ni un nom d&apos;hôte ni une adresse.</translation>
    </message>
</context>
<context>
    <name>TaskFit</name>
    <message>
        <source>Cannot run: %1</source>
        <translation>Impossible à exécuter : %1</translation>
    </message>
    <message>
        <source>Fits: about %1 credits/h (%2 tokens/s)</source>
        <translation>Compatible : environ %1 crédits/h (%2 jetons/s)</translation>
    </message>
    <message>
        <source>Fits (speed not measured yet)</source>
        <translation>Compatible (vitesse pas encore mesurée)</translation>
    </message>
    <message>
        <source>this version of Cohort cannot run %1 tasks yet</source>
        <translation>cette version de Cohort ne sait pas encore exécuter les tâches %1</translation>
    </message>
    <message>
        <source>needs %1 CPU cores, this computer has %2</source>
        <translation>nécessite %1 cœurs CPU, cet ordinateur en a %2</translation>
    </message>
    <message>
        <source>needs %1 GB of memory, this computer has %2</source>
        <translation>nécessite %1 Go de mémoire, cet ordinateur en a %2</translation>
    </message>
    <message>
        <source>needs an NVIDIA GPU</source>
        <translation>nécessite un GPU NVIDIA</translation>
    </message>
    <message>
        <source>needs %1 GB of GPU memory, the largest GPU here has %2</source>
        <translation>nécessite %1 Go de mémoire GPU, le plus grand GPU ici en a %2</translation>
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
        <translation>Avertissement</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erreur</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Heure</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Gravité</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Catégorie</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Message</translation>
    </message>
</context>
<context>
    <name>cohort::ActivityPage</name>
    <message>
        <source>Clear</source>
        <translation>Effacer</translation>
    </message>
    <message>
        <source>Empty this list; the engine keeps running</source>
        <translation>Vider cette liste ; le moteur continue de tourner</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>Tout</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>Avertissements et erreurs</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>Erreurs uniquement</translation>
    </message>
    <message>
        <source>Show events of this severity</source>
        <translation>Afficher les événements de cette gravité</translation>
    </message>
    <message>
        <source>All subsystems</source>
        <translation>Tous les sous-systèmes</translation>
    </message>
    <message>
        <source>Show events of this subsystem</source>
        <translation>Afficher les événements de ce sous-système</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the selected events (or all shown) as text</source>
        <translation>Copier les événements sélectionnés (ou tous ceux affichés) sous forme de texte</translation>
    </message>
    <message>
        <source>Save diagnostics…</source>
        <translation>Enregistrer les diagnostics…</translation>
    </message>
    <message>
        <source>A zip of events, status, settings and versions for a bug report; never your key</source>
        <translation>Une archive zip des événements, de l&apos;état, des paramètres et des versions pour un rapport de bug ; jamais votre clé</translation>
    </message>
    <message>
        <source>What the engine has been doing, newest at the bottom.</source>
        <translation>Ce qu&apos;a fait le moteur, les plus récents en bas.</translation>
    </message>
    <message>
        <source>Each batch</source>
        <translation>Chaque lot</translation>
    </message>
    <message>
        <source>Show a row for every batch and download; otherwise the engine sums them up once a minute</source>
        <translation>Afficher une ligne par lot et par téléchargement ; sinon le moteur les résume une fois par minute</translation>
    </message>
</context>
<context>
    <name>cohort::DashboardPage</name>
    <message>
        <source>Cohort %1 is available.</source>
        <translation>Cohort %1 est disponible.</translation>
    </message>
    <message>
        <source>This hub needs Cohort %1 or newer; you have %2.</source>
        <translation>Ce hub nécessite Cohort %1 ou plus récent ; vous avez %2.</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Télécharger</translation>
    </message>
    <message>
        <source>This node</source>
        <translation>Ce nœud</translation>
    </message>
    <message>
        <source>Node ID</source>
        <translation>Identifiant du nœud</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>Hub</translation>
    </message>
    <message>
        <source>Registered</source>
        <translation>Inscrit</translation>
    </message>
    <message>
        <source>Last heartbeat</source>
        <translation>Dernier signal</translation>
    </message>
    <message>
        <source>Joined task</source>
        <translation>Tâche rejointe</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Rollouts</source>
        <translation>Rollouts</translation>
    </message>
    <message>
        <source>Last problem</source>
        <translation>Dernier problème</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Cet ordinateur</translation>
    </message>
    <message>
        <source>Compute device</source>
        <translation>Matériel de calcul</translation>
    </message>
    <message>
        <source>CPU use</source>
        <translation>Utilisation du CPU</translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation>Mémoire utilisée</translation>
    </message>
    <message>
        <source>Used by Cohort</source>
        <translation>Utilisée par Cohort</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation>5 dernières minutes</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Dernière heure</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Dernières 24 heures</translation>
    </message>
    <message>
        <source>GPU chart range</source>
        <translation>Période du graphique GPU</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Let this computer work again</source>
        <translation>Laisser cet ordinateur travailler à nouveau</translation>
    </message>
    <message>
        <source>Stop working until you resume; nothing is lost</source>
        <translation>Arrêter de travailler jusqu&apos;à la reprise ; rien n&apos;est perdu</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>pas encore</translation>
    </message>
    <message>
        <source> (1 failure since)</source>
        <translation> (1 échec depuis)</translation>
    </message>
    <message>
        <source> (%1 failures since)</source>
        <translation> (%1 échecs depuis)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>detecting…</source>
        <translation>détection…</translation>
    </message>
    <message>
        <source>1 GPU: %1</source>
        <translation>1 GPU : %1</translation>
    </message>
    <message>
        <source>%1 GPUs: %2</source>
        <translation>%1 GPU : %2</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>aucun pour l&apos;instant</translation>
    </message>
    <message>
        <source>1 batch accepted</source>
        <translation>1 lot accepté</translation>
    </message>
    <message>
        <source>%1 batches accepted</source>
        <translation>%1 lots acceptés</translation>
    </message>
    <message>
        <source>, %1 rejected</source>
        <translation>, %1 rejetés</translation>
    </message>
    <message>
        <source>, %1 tokens generated</source>
        <translation>, %1 jetons générés</translation>
    </message>
    <message>
        <source> (%1 tokens/s)</source>
        <translation> (%1 jetons/s)</translation>
    </message>
    <message>
        <source>; last batch scored %1 of 100 with version %2</source>
        <translation>; dernier lot noté %1 sur 100 avec la version %2</translation>
    </message>
    <message>
        <source>; 1 batch waiting to be sent</source>
        <translation>; 1 lot en attente d&apos;envoi</translation>
    </message>
    <message>
        <source>; %1 batches waiting to be sent</source>
        <translation>; %1 lots en attente d&apos;envoi</translation>
    </message>
    <message>
        <source>; last rejection: %1</source>
        <translation>; dernier rejet : %1</translation>
    </message>
    <message>
        <source>version %1, verified</source>
        <translation>version %1, vérifiée</translation>
    </message>
    <message>
        <source>downloading version %1: %2% of %3</source>
        <translation>téléchargement de la version %1 : %2 % de %3</translation>
    </message>
    <message>
        <source> at %1/s</source>
        <translation> à %1/s</translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation>, %1 s restantes</translation>
    </message>
    <message numerus="yes">
        <source> (%n relay(s))</source>
        <translation>
            <numerusform> (%n relais)</numerusform>
            <numerusform> (%n relais)</numerusform>
        </translation>
    </message>
    <message>
        <source>; download of version %1 paused at %2%</source>
        <translation>; téléchargement de la version %1 en pause à %2 %</translation>
    </message>
    <message>
        <source>; download failed: %1</source>
        <translation>; échec du téléchargement : %1</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entraînement</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>Relais</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Réussite</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Vitesse</translation>
    </message>
    <message>
        <source>Fetched</source>
        <translation>Récupéré</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>En cours</translation>
    </message>
    <message>
        <source>Checkpoint relays</source>
        <translation>Relais de checkpoint</translation>
    </message>
    <message>
        <source>%1 MB/s</source>
        <translation>%1 Mo/s</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>non mesurée</translation>
    </message>
    <message numerus="yes">
        <source>%n failure(s): %1</source>
        <translation>
            <numerusform>%n échec : %1</numerusform>
            <numerusform>%n échecs : %1</numerusform>
        </translation>
    </message>
    <message>
        <source>not training</source>
        <translation>pas d&apos;entraînement</translation>
    </message>
    <message>
        <source>not training: %1</source>
        <translation>pas d&apos;entraînement : %1</translation>
    </message>
    <message>
        <source>joining the training ring…</source>
        <translation>connexion à l&apos;anneau d&apos;entraînement…</translation>
    </message>
    <message>
        <source>outer step %1, inner step %2 of %3, training alone</source>
        <translation>étape externe %1, étape interne %2 sur %3, entraînement en solo</translation>
    </message>
    <message>
        <source>outer step %1, inner step %2 of %3, %4 peers</source>
        <translation>étape externe %1, étape interne %2 sur %3, %4 pairs</translation>
    </message>
    <message>
        <source> — averaging with the others</source>
        <translation> — moyenne avec les autres en cours</translation>
    </message>
    <message>
        <source> — syncing the shared model</source>
        <translation> — synchronisation du modèle partagé</translation>
    </message>
    <message>
        <source>; loss %1</source>
        <translation>; perte %1</translation>
    </message>
    <message>
        <source>; 1 outer step contributed</source>
        <translation>; 1 étape externe apportée</translation>
    </message>
    <message>
        <source>; %1 outer steps contributed</source>
        <translation>; %1 étapes externes apportées</translation>
    </message>
    <message>
        <source>; last average moved %1</source>
        <translation>; dernière moyenne : %1 transférés</translation>
    </message>
    <message>
        <source>, last sync fetched %1</source>
        <translation>, dernière synchronisation : %1 récupérés</translation>
    </message>
    <message>
        <source>, in step with the others</source>
        <translation>, au même pas que les autres</translation>
    </message>
    <message>
        <source>stopped after </source>
        <translation>arrêté après </translation>
    </message>
    <message>
        <source>Choose a task…</source>
        <translation>Choisir une tâche…</translation>
    </message>
    <message>
        <source>Pick what this computer works on, from the tasks the hub offers</source>
        <translation>Choisir, parmi les tâches du hub, celle sur laquelle cet ordinateur travaille</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Réseau</translation>
    </message>
    <message>
        <source>version %1 answers %2 % of held-out problems correctly (%3 % at version %4)</source>
        <translation>la version %1 résout %2 % des problèmes réservés (%3 % à la version %4)</translation>
    </message>
    <message>
        <source>your part %1 % of accepted batches, rank %2 of %3</source>
        <translation>votre part %1 % des lots acceptés, rang %2 sur %3</translation>
    </message>
    <message>
        <source>%1 (%2, paused)</source>
        <translation>%1 (%2, en pause)</translation>
    </message>
    <message>
        <source>%1 (%2, waiting for %3)</source>
        <translation>%1 (%2, attend %3)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1 ; %2</translation>
    </message>
    <message>
        <source>held-out loss %1 at outer step %2 (%3 at outer step %4)</source>
        <translation>perte sur données réservées %1 à l&apos;étape externe %2 (%3 à l&apos;étape externe %4)</translation>
    </message>
</context>
<context>
    <name>cohort::DataFolderMove</name>
    <message>
        <source>Choose the folder to move the data to.</source>
        <translation>Choisissez le dossier où déplacer les données.</translation>
    </message>
    <message>
        <source>Choose a full path (an absolute folder).</source>
        <translation>Choisissez un chemin complet (un dossier absolu).</translation>
    </message>
    <message>
        <source>That is the current data folder.</source>
        <translation>C&apos;est le dossier de données actuel.</translation>
    </message>
    <message>
        <source>The new folder cannot be inside the current data folder.</source>
        <translation>Le nouveau dossier ne peut pas se trouver dans le dossier de données actuel.</translation>
    </message>
    <message>
        <source>This path is a file, not a folder.</source>
        <translation>Ce chemin est un fichier, pas un dossier.</translation>
    </message>
    <message>
        <source>The current data folder is inside that folder. Choose an empty folder or a new one.</source>
        <translation>Le dossier de données actuel se trouve dans ce dossier. Choisissez un dossier vide ou un nouveau dossier.</translation>
    </message>
    <message>
        <source>That folder already holds Cohort data with another node key. Choose an empty folder or a new one.</source>
        <translation>Ce dossier contient déjà des données Cohort avec une autre clé de nœud. Choisissez un dossier vide ou un nouveau dossier.</translation>
    </message>
    <message>
        <source>That folder is not empty. Choose an empty folder or a new one: Cohort does not mix its data with other files.</source>
        <translation>Ce dossier n&apos;est pas vide. Choisissez un dossier vide ou un nouveau dossier : Cohort ne mélange pas ses données avec d&apos;autres fichiers.</translation>
    </message>
    <message>
        <source>The current data folder %1 does not exist, so there is nothing to move.</source>
        <translation>Le dossier de données actuel %1 n&apos;existe pas, il n&apos;y a donc rien à déplacer.</translation>
    </message>
    <message>
        <source>Could not create %1.</source>
        <translation>Impossible de créer %1.</translation>
    </message>
    <message>
        <source>Not enough free space in %1: the data needs %2, %3 are free.</source>
        <translation>Espace libre insuffisant dans %1 : les données nécessitent %2, seuls %3 sont libres.</translation>
    </message>
    <message>
        <source>The move was cancelled.</source>
        <translation>Le déplacement a été annulé.</translation>
    </message>
    <message>
        <source>Could not copy %1 to %2.</source>
        <translation>Impossible de copier %1 vers %2.</translation>
    </message>
    <message>
        <source>The copy of %1 does not match the original.</source>
        <translation>La copie de %1 ne correspond pas à l&apos;original.</translation>
    </message>
</context>
<context>
    <name>cohort::DesktopApp</name>
    <message>
        <source>Cohort is still running</source>
        <translation>Cohort est toujours en cours d&apos;exécution</translation>
    </message>
    <message>
        <source>It keeps working in the notification area. Use Quit in its menu to stop it.</source>
        <translation>Il continue de travailler dans la zone de notification. Utilisez Quitter dans son menu pour l&apos;arrêter.</translation>
    </message>
    <message>
        <source>Save diagnostics</source>
        <translation>Enregistrer les diagnostics</translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation>Archives zip (*.zip)</translation>
    </message>
    <message>
        <source>The diagnostics were not saved: %1</source>
        <translation>Les diagnostics n&apos;ont pas été enregistrés : %1</translation>
    </message>
    <message>
        <source>Saved %1.
It contains the recent events, the status, your settings and the names of the files in the data folder; never your node key.</source>
        <translation>%1 enregistré.
Il contient les événements récents, l&apos;état, vos paramètres et les noms des fichiers du dossier de données ; jamais votre clé de nœud.</translation>
    </message>
</context>
<context>
    <name>cohort::DoctorDialog</name>
    <message>
        <source>%1 things keep Cohort from working here; each says how to fix it.</source>
        <translation>%1 choses empêchent Cohort de fonctionner ici ; chacune indique comment la corriger.</translation>
    </message>
    <message>
        <source>%1
Fix: %2</source>
        <translation>%1
Correction : %2</translation>
    </message>
    <message>
        <source>1 thing keeps Cohort from working here; it says how to fix it.</source>
        <translation>1 chose empêche Cohort de fonctionner ici ; elle indique comment la corriger.</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Vérifier à nouveau</translation>
    </message>
    <message>
        <source>Check this computer</source>
        <translation>Vérifier cet ordinateur</translation>
    </message>
    <message>
        <source>Checking this computer… (the hub&apos;s answers can take a few seconds)</source>
        <translation>Vérification de cet ordinateur… (les réponses du hub peuvent prendre quelques secondes)</translation>
    </message>
    <message>
        <source>Cohort can work here; %1 things could be better.</source>
        <translation>Cohort peut fonctionner ici ; %1 choses pourraient être meilleures.</translation>
    </message>
    <message>
        <source>Cohort can work here; 1 thing could be better.</source>
        <translation>Cohort peut fonctionner ici ; 1 chose pourrait être meilleure.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Everything Cohort needs is in place.</source>
        <translation>Tout ce dont Cohort a besoin est en place.</translation>
    </message>
    <message>
        <source>Fix this</source>
        <translation>À corriger</translation>
    </message>
    <message>
        <source>Look at this</source>
        <translation>À examiner</translation>
    </message>
    <message>
        <source>Not needed here</source>
        <translation>Inutile ici</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>The checks did not finish within a minute.</source>
        <translation>Les vérifications ne se sont pas terminées en une minute.</translation>
    </message>
    <message>
        <source>cohortd could not be started (%1): %2</source>
        <translation>cohortd n&apos;a pas pu être lancé (%1) : %2</translation>
    </message>
    <message>
        <source>cohortd stopped before its report was complete.</source>
        <translation>cohortd s&apos;est arrêté avant la fin de son rapport.</translation>
    </message>
    <message>
        <source>cohortd&apos;s report could not be read (%1).%2</source>
        <translation>Le rapport de cohortd n&apos;a pas pu être lu (%1).%2</translation>
    </message>
    <message>
        <source>cohortd, which runs the checks, was not found next to Cohort. Reinstall Cohort.</source>
        <translation>cohortd, qui effectue les vérifications, est introuvable à côté de Cohort. Réinstallez Cohort.</translation>
    </message>
</context>
<context>
    <name>cohort::EarningsChart</name>
    <message>
        <source>Confirmed</source>
        <translation>Confirmé</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>En attente</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>crédits</translation>
    </message>
    <message>
        <source>%1 / hour</source>
        <translation>%1 / heure</translation>
    </message>
</context>
<context>
    <name>cohort::EarningsPage</name>
    <message>
        <source>Last 24 hours</source>
        <translation>Dernières 24 heures</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>7 derniers jours</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>30 derniers jours</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Exporter en CSV…</translation>
    </message>
    <message>
        <source>Save the hourly history as a spreadsheet file (times in UTC)</source>
        <translation>Enregistrer l&apos;historique horaire dans un fichier tableur (heures en UTC)</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>En attente</translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation>Confirmé</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Refusé</translation>
    </message>
    <message>
        <source>&lt;b&gt;Pending&lt;/b&gt; is work you have reported that the hub has not checked yet. &lt;b&gt;Confirmed&lt;/b&gt; is work the hub has verified and credited to this node. &lt;b&gt;Refused&lt;/b&gt; was accepted at first, then failed verification.</source>
        <translation>&lt;b&gt;En attente&lt;/b&gt; : travail que vous avez déclaré et que le hub n&apos;a pas encore vérifié. &lt;b&gt;Confirmé&lt;/b&gt; : travail que le hub a vérifié et crédité à ce nœud. &lt;b&gt;Refusé&lt;/b&gt; : travail d&apos;abord accepté, puis rejeté lors de la vérification.</translation>
    </message>
    <message>
        <source>No earnings yet — earnings appear here once your machine&apos;s work is verified by the hub.</source>
        <translation>Aucun gain pour l&apos;instant — les gains apparaissent ici dès que le travail de votre machine est vérifié par le hub.</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Jetons</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Lots</translation>
    </message>
    <message>
        <source>Today %1 · 7 days %2</source>
        <translation>Aujourd&apos;hui %1 · 7 jours %2</translation>
    </message>
    <message>
        <source>Last updated %1</source>
        <translation>Dernière mise à jour %1</translation>
    </message>
    <message>
        <source>The hub cannot be reached right now. These are the figures saved on this computer; they update when the hub answers again.</source>
        <translation>Le hub est injoignable pour le moment. Voici les chiffres enregistrés sur cet ordinateur ; ils seront mis à jour quand le hub répondra à nouveau.</translation>
    </message>
    <message>
        <source>Export earnings</source>
        <translation>Exporter les gains</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>Fichiers CSV (*.csv);;Tous les fichiers (*)</translation>
    </message>
    <message numerus="yes">
        <source>Saved %n hour(s) of history to %1</source>
        <translation>
            <numerusform>%n heure d&apos;historique enregistrée dans %1</numerusform>
            <numerusform>%n heures d&apos;historique enregistrées dans %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>Impossible d&apos;enregistrer %1 : %2</translation>
    </message>
    <message>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <source>Energy: not read yet.</source>
        <translation>Énergie : pas encore relevée.</translation>
    </message>
    <message>
        <source>No GPU power readings: the energy Cohort uses cannot be measured on this computer, so earnings are shown without its cost.</source>
        <translation>Aucune mesure de puissance GPU : l&apos;énergie utilisée par Cohort ne peut pas être mesurée sur cet ordinateur, les gains sont donc affichés sans son coût.</translation>
    </message>
    <message>
        <source>Energy used by the GPUs: today %1 · 7 days %2</source>
        <translation>Énergie utilisée par les GPU : aujourd&apos;hui %1 · 7 jours %2</translation>
    </message>
    <message>
        <source>Set your electricity price in Settings › Account to see what it costs and your earnings net of it.</source>
        <translation>Indiquez votre prix de l&apos;électricité dans Paramètres › Compte pour voir ce qu&apos;elle coûte et vos gains nets de ce coût.</translation>
    </message>
    <message>
        <source>Electricity cost: today %1 · 7 days %2. Set what one credit is worth in Settings › Account to see earnings net of it.</source>
        <translation>Coût de l&apos;électricité : aujourd&apos;hui %1 · 7 jours %2. Indiquez la valeur d&apos;un crédit dans Paramètres › Compte pour voir les gains nets de ce coût.</translation>
    </message>
    <message>
        <source>Earnings net of electricity: today %1 · 7 days %2 (electricity %3 over 7 days; earnings pending and confirmed, at %4 per credit)</source>
        <translation>Gains nets d&apos;électricité : aujourd&apos;hui %1 · 7 jours %2 (électricité %3 sur 7 jours ; gains en attente et confirmés, à %4 par crédit)</translation>
    </message>
    <message>
        <source>No payout address yet: the hub credits this node&apos;s id. Add one in Settings, Account.</source>
        <translation>Pas encore d&apos;adresse de paiement : le hub crédite l&apos;identifiant de ce nœud. Ajoutez-en une dans Paramètres, Compte.</translation>
    </message>
    <message>
        <source>The hub has no payout address on record yet; it receives %1 with the next heartbeat (within a minute).</source>
        <translation>Le hub n&apos;a pas encore d&apos;adresse de paiement enregistrée ; il recevra %1 avec le prochain battement (dans la minute).</translation>
    </message>
    <message>
        <source>Paid to %1, the address the hub has on record.</source>
        <translation>Payé à %1, l&apos;adresse enregistrée par le hub.</translation>
    </message>
    <message>
        <source>The hub still has %1 on record; it removes it with the next heartbeat (within a minute).</source>
        <translation>Le hub a encore %1 enregistrée ; il la supprime avec le prochain battement (dans la minute).</translation>
    </message>
    <message>
        <source>The hub has %1 on record, not the address in Settings (%2); it takes the new one with the next heartbeat (within a minute).</source>
        <translation>Le hub a %1 enregistrée, pas l&apos;adresse des Paramètres (%2) ; il prend la nouvelle avec le prochain battement (dans la minute).</translation>
    </message>
</context>
<context>
    <name>cohort::Engine</name>
    <message>
        <source>The hub is training the task&apos;s first policy</source>
        <translation>Le hub entraîne la première politique de la tâche</translation>
    </message>
    <message>
        <source>The hub stopped giving this node work: %1</source>
        <translation>Le hub ne donne plus de travail à ce nœud : %1</translation>
    </message>
    <message>
        <source>%1: generating rollouts with policy v%2</source>
        <translation>%1 : génère des rollouts avec la politique v%2</translation>
    </message>
    <message>
        <source>%1: waiting for the hub&apos;s trainer to take the next batch (%2 accepted so far)</source>
        <translation>%1 : attend que l&apos;entraîneur du hub prenne le lot suivant (%2 acceptés jusqu&apos;ici)</translation>
    </message>
    <message>
        <source>%1: waiting for the first policy version</source>
        <translation>%1 : attend la première version de la politique</translation>
    </message>
    <message>
        <source>%1: policy v%2, %3 batches accepted</source>
        <translation>%1 : politique v%2, %3 lots acceptés</translation>
    </message>
    <message>
        <source>, %1 waiting in the outbox</source>
        <translation>, %1 en attente dans la boîte d&apos;envoi</translation>
    </message>
    <message>
        <source>Joined &quot;%1&quot;; the hub has no DiLoCo master for it</source>
        <translation>« %1 » rejointe ; le hub n&apos;a pas de maître DiLoCo pour elle</translation>
    </message>
    <message>
        <source>Joined &quot;%1&quot; (DiLoCo); %2</source>
        <translation>« %1 » rejointe (DiLoCo) ; %2</translation>
    </message>
    <message>
        <source>not training</source>
        <translation>pas d&apos;entraînement</translation>
    </message>
    <message>
        <source>DiLoCo &quot;%1&quot;: joining the training ring</source>
        <translation>DiLoCo « %1 » : rejoint l&apos;anneau d&apos;entraînement</translation>
    </message>
    <message>
        <source>DiLoCo &quot;%1&quot;: outer step %2, inner %3/%4, %5 peer(s)</source>
        <translation>DiLoCo « %1 » : pas externe %2, interne %3/%4, %5 pair(s)</translation>
    </message>
    <message>
        <source>, averaging</source>
        <translation>, moyenne en cours</translation>
    </message>
    <message>
        <source>, syncing</source>
        <translation>, synchronisation</translation>
    </message>
    <message>
        <source>, loss %1</source>
        <translation>, perte %1</translation>
    </message>
    <message>
        <source>%1 v%2, %3 of %4</source>
        <translation>%1 v%2, %3 sur %4</translation>
    </message>
    <message>
        <source> at %1/s</source>
        <translation> à %1/s</translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation>, encore %1 s</translation>
    </message>
    <message>
        <source>Joined &quot;%1&quot;</source>
        <translation>« %1 » rejointe</translation>
    </message>
    <message>
        <source>; checkpoint v%1 ready</source>
        <translation>; point de contrôle v%1 prêt</translation>
    </message>
    <message>
        <source>; checkpoint download failed, retrying later</source>
        <translation>; échec du téléchargement du point de contrôle, nouvel essai plus tard</translation>
    </message>
    <message>
        <source>; this version cannot run %1 work yet</source>
        <translation>; cette version ne sait pas encore exécuter le travail %1</translation>
    </message>
    <message>
        <source>, last mean reward %1%</source>
        <translation>, dernière récompense moyenne %1 %</translation>
    </message>
    <message>
        <source>None of the GPUs chosen in the settings is here (%1): Cohort computes on the CPU</source>
        <translation>Aucun des GPU choisis dans les paramètres n&apos;est présent (%1) : Cohort calcule sur le CPU</translation>
    </message>
    <message>
        <source>%1: every GPU Cohort may use is paused or in use by another program</source>
        <translation>%1 : chaque GPU que Cohort peut utiliser est en pause ou utilisé par un autre programme</translation>
    </message>
    <message>
        <source>%1: generating rollouts on %2 of %3 GPUs with policy v%4, %5 batches accepted</source>
        <translation>%1 : génère des rollouts sur %2 GPU sur %3 avec la politique v%4, %5 lots acceptés</translation>
    </message>
    <message>
        <source> (1 GPU paused)</source>
        <translation> (1 GPU en pause)</translation>
    </message>
    <message>
        <source> (%1 GPUs paused)</source>
        <translation> (%1 GPU en pause)</translation>
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
        <translation>Utilisation %</translation>
    </message>
    <message>
        <source>VRAM %</source>
        <translation>VRAM %</translation>
    </message>
    <message>
        <source>Temperature °C</source>
        <translation>Température °C</translation>
    </message>
    <message>
        <source>Power W</source>
        <translation>Puissance W</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>n/d</translation>
    </message>
    <message>
        <source>%1% busy</source>
        <translation>occupé à %1 %</translation>
    </message>
    <message>
        <source>utilization %1</source>
        <translation>utilisation %1</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation>température %1</translation>
    </message>
    <message>
        <source>VRAM %1 of %2%3</source>
        <translation>VRAM %1 sur %2%3</translation>
    </message>
    <message>
        <source>VRAM %1</source>
        <translation>VRAM %1</translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation>%1 W sur %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>power %1</source>
        <translation>puissance %1</translation>
    </message>
    <message>
        <source>clocks: SM %1, memory %2</source>
        <translation>fréquences : SM %1, mémoire %2</translation>
    </message>
    <message>
        <source>%1 MHz</source>
        <translation>%1 MHz</translation>
    </message>
    <message>
        <source>fan %1%</source>
        <translation>ventilateur %1 %</translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation>non lu : %1</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1 : %2</translation>
    </message>
    <message>
        <source>GPU %1: %2 (%3)</source>
        <translation>GPU %1 : %2 (%3)</translation>
    </message>
    <message>
        <source>hours ago</source>
        <translation>il y a … heures</translation>
    </message>
    <message>
        <source>minutes ago</source>
        <translation>il y a … minutes</translation>
    </message>
    <message>
        <source>Cohort computes on the CPU: its LibTorch cannot use this GPU</source>
        <translation>Cohort calcule sur le CPU : sa LibTorch ne peut pas utiliser ce GPU</translation>
    </message>
    <message>
        <source>Cohort does not compute on this GPU (Settings › Compute)</source>
        <translation>Cohort ne calcule pas sur ce GPU (Paramètres › Calcul)</translation>
    </message>
    <message>
        <source>Cohort: paused on this GPU by you; the other devices keep working</source>
        <translation>Cohort : mis en pause par vous sur ce GPU ; les autres appareils continuent</translation>
    </message>
    <message>
        <source>Cohort: waiting while %1 uses this GPU; the other devices keep working</source>
        <translation>Cohort : attend tant que %1 utilise ce GPU ; les autres appareils continuent</translation>
    </message>
    <message>
        <source>Cohort: generating</source>
        <translation>Cohort : génère</translation>
    </message>
    <message>
        <source>Cohort: ready</source>
        <translation>Cohort : prêt</translation>
    </message>
    <message>
        <source>%L1 tokens/s</source>
        <translation>%L1 jetons/s</translation>
    </message>
    <message>
        <source>may use %1 (%2 %)</source>
        <translation>peut utiliser %1 (%2 %)</translation>
    </message>
    <message>
        <source>1 batch accepted</source>
        <translation>1 lot accepté</translation>
    </message>
    <message>
        <source>%L1 batches accepted</source>
        <translation>%L1 lots acceptés</translation>
    </message>
    <message>
        <source>Resume this GPU</source>
        <translation>Reprendre ce GPU</translation>
    </message>
    <message>
        <source>Pause this GPU</source>
        <translation>Mettre ce GPU en pause</translation>
    </message>
</context>
<context>
    <name>cohort::HeldOutChart</name>
    <message>
        <source>Correct, most likely answer</source>
        <translation>Juste, réponse la plus probable</translation>
    </message>
    <message>
        <source>Reward, sampled answers</source>
        <translation>Récompense, réponses échantillonnées</translation>
    </message>
    <message>
        <source>Model version</source>
        <translation>Version du modèle</translation>
    </message>
    <message>
        <source>Held-out score by model version</source>
        <translation>Score sur les problèmes réservés par version du modèle</translation>
    </message>
    <message>
        <source>Held-out loss (lower is better)</source>
        <translation>Perte sur données réservées (plus bas, c&apos;est mieux)</translation>
    </message>
    <message>
        <source>Nats per byte</source>
        <translation>Nats par octet</translation>
    </message>
    <message>
        <source>Outer step</source>
        <translation>Étape externe</translation>
    </message>
</context>
<context>
    <name>cohort::MainWindow</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>Check this &amp;computer…</source>
        <translation>Vérifier cet &amp;ordinateur…</translation>
    </message>
    <message>
        <source>Check the hub, the clock, reachability by peers, disk, memory, the matrix library and the GPU, and say how to fix what is wrong</source>
        <translation>Vérifier le hub, l&apos;horloge, l&apos;accessibilité par les pairs, le disque, la mémoire, la bibliothèque de calcul matriciel et le GPU, et indiquer comment corriger ce qui ne va pas</translation>
    </message>
    <message>
        <source>Cohort</source>
        <translation>Cohort</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>Tableau de bord</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Tâches</translation>
    </message>
    <message>
        <source>Earnings</source>
        <translation>Gains</translation>
    </message>
    <message>
        <source>Activity</source>
        <translation>Activité</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>Para&amp;mètres…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Cohort</source>
        <translation>&amp;Cohort</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Principale</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Reprendre</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>Mettre en &amp;pause</translation>
    </message>
</context>
<context>
    <name>cohort::Notifier</name>
    <message>
        <source>Cohort has stopped working</source>
        <translation>Cohort a cessé de travailler</translation>
    </message>
    <message>
        <source>Cohort cannot reach its hub</source>
        <translation>Cohort ne parvient pas à joindre son hub</translation>
    </message>
    <message>
        <source>It keeps trying and resumes by itself.</source>
        <translation>Il continue d&apos;essayer et reprendra de lui-même.</translation>
    </message>
    <message>
        <source>Cohort paused: not enough disk space</source>
        <translation>Cohort en pause : espace disque insuffisant</translation>
    </message>
    <message>
        <source>Free some space or raise the disk cap in Settings › Storage.</source>
        <translation>Libérez de l&apos;espace ou relevez la limite de disque dans Paramètres › Stockage.</translation>
    </message>
    <message>
        <source>A model download failed</source>
        <translation>Échec du téléchargement d&apos;un modèle</translation>
    </message>
    <message>
        <source>Cohort tries again later.</source>
        <translation>Cohort réessaiera plus tard.</translation>
    </message>
    <message>
        <source>The hub refused a batch of work</source>
        <translation>Le hub a refusé un lot de travail</translation>
    </message>
    <message>
        <source>See the Activity page for details.</source>
        <translation>Consultez la page Activité pour plus de détails.</translation>
    </message>
    <message>
        <source>Model downloaded</source>
        <translation>Modèle téléchargé</translation>
    </message>
    <message>
        <source>Version %1 of %2 is ready; work continues with it.</source>
        <translation>La version %1 de %2 est prête ; le travail continue avec elle.</translation>
    </message>
    <message>
        <source>Work failed verification</source>
        <translation>Travail rejeté à la vérification</translation>
    </message>
    <message>
        <source>The hub refused %1 %2 of work it had accepted. If this repeats, check the Activity page.</source>
        <translation>Le hub a refusé %1 %2 de travail qu&apos;il avait accepté. Si cela se répète, consultez la page Activité.</translation>
    </message>
    <message>
        <source>Your first work was verified</source>
        <translation>Votre premier travail a été vérifié</translation>
    </message>
    <message>
        <source>The hub confirmed %1 %2 for this computer.</source>
        <translation>Le hub a confirmé %1 %2 pour cet ordinateur.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsAccountPage</name>
    <message>
        <source>Account</source>
        <translation>Compte</translation>
    </message>
    <message>
        <source>Node name</source>
        <translation>Nom du nœud</translation>
    </message>
    <message>
        <source>How this computer is shown to the hub&apos;s operator. Empty: the computer&apos;s name.</source>
        <translation>Comment cet ordinateur apparaît pour l&apos;opérateur du hub. Vide : le nom de l&apos;ordinateur.</translation>
    </message>
    <message>
        <source>Node id</source>
        <translation>Identifiant du nœud</translation>
    </message>
    <message>
        <source>Known once the engine has started</source>
        <translation>Connu une fois le moteur démarré</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the node id</source>
        <translation>Copier l&apos;identifiant du nœud</translation>
    </message>
    <message>
        <source>Export key…</source>
        <translation>Exporter la clé…</translation>
    </message>
    <message>
        <source>Export the node key</source>
        <translation>Exporter la clé du nœud</translation>
    </message>
    <message>
        <source>Save a copy of this node&apos;s secret key, e.g. to move the node to another computer.</source>
        <translation>Enregistrer une copie de la clé secrète de ce nœud, par ex. pour déplacer le nœud vers un autre ordinateur.</translation>
    </message>
    <message>
        <source>Payout address</source>
        <translation>Adresse de paiement</translation>
    </message>
    <message>
        <source>Electricity price per kWh</source>
        <translation>Prix de l&apos;électricité par kWh</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>Non défini</translation>
    </message>
    <message>
        <source> per kWh</source>
        <translation> par kWh</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Devise</translation>
    </message>
    <message>
        <source>e.g. EUR</source>
        <translation>par ex. EUR</translation>
    </message>
    <message>
        <source>Value of one credit</source>
        <translation>Valeur d&apos;un crédit</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Inconnue</translation>
    </message>
    <message>
        <source>What one credit is worth to you, in the same currency. With it, the Earnings page shows earnings net of electricity; without it, only the electricity cost.</source>
        <translation>Ce que vaut un crédit pour vous, dans la même devise. Avec cette valeur, la page Gains affiche les gains nets d&apos;électricité ; sans elle, seulement le coût de l&apos;électricité.</translation>
    </message>
    <message>
        <source>This node</source>
        <translation>Ce nœud</translation>
    </message>
    <message>
        <source>Node name:</source>
        <translation>Nom du nœud :</translation>
    </message>
    <message>
        <source>Node id:</source>
        <translation>Identifiant du nœud :</translation>
    </message>
    <message>
        <source>Payout and energy</source>
        <translation>Paiement et énergie</translation>
    </message>
    <message>
        <source>Payout address:</source>
        <translation>Adresse de paiement :</translation>
    </message>
    <message>
        <source>Electricity price:</source>
        <translation>Prix de l&apos;électricité :</translation>
    </message>
    <message>
        <source>One credit is worth:</source>
        <translation>Un crédit vaut :</translation>
    </message>
    <message>
        <source>Valid. With checksum: %1</source>
        <translation>Valide. Avec somme de contrôle : %1</translation>
    </message>
    <message>
        <source>An Ethereum-style address: 0x and 40 hexadecimal digits. Mixed upper and lower case must match the address checksum (EIP-55); all lower or all upper case has none.</source>
        <translation>Une adresse de type Ethereum : 0x suivi de 40 chiffres hexadécimaux. Un mélange de majuscules et de minuscules doit correspondre à la somme de contrôle de l&apos;adresse (EIP-55) ; une adresse entièrement en minuscules ou en majuscules n&apos;en a pas.</translation>
    </message>
    <message>
        <source>There is no node key yet: it is created when the engine first starts.</source>
        <translation>Il n&apos;y a pas encore de clé de nœud : elle est créée au premier démarrage du moteur.</translation>
    </message>
    <message>
        <source>The node key is this node&apos;s identity: whoever has the file can act as this node and is credited its earnings. Keep the copy private (Cohort saves it readable by you only), and never send it to anyone, including support.

Export it now?</source>
        <translation>La clé du nœud est l&apos;identité de ce nœud : quiconque possède le fichier peut agir en tant que ce nœud et se voit créditer ses gains. Gardez la copie privée (Cohort l&apos;enregistre lisible par vous seul) et ne l&apos;envoyez jamais à personne, pas même au support.

L&apos;exporter maintenant ?</translation>
    </message>
    <message>
        <source>Choose another place than the key file itself.</source>
        <translation>Choisissez un autre emplacement que le fichier de clé lui-même.</translation>
    </message>
    <message>
        <source>Could not read the node key %1: %2</source>
        <translation>Impossible de lire la clé du nœud %1 : %2</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>Impossible d&apos;enregistrer %1 : %2</translation>
    </message>
    <message>
        <source>Saved %1, but could not make it private: %2</source>
        <translation>%1 enregistré, mais impossible de le rendre privé : %2</translation>
    </message>
    <message>
        <source>Saved the node key to %1 (readable by you only).</source>
        <translation>Clé du nœud enregistrée dans %1 (lisible par vous seul).</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsComputePage</name>
    <message>
        <source>Compute</source>
        <translation>Calcul</translation>
    </message>
    <message>
        <source>Use all GPUs, including ones added later</source>
        <translation>Utiliser tous les GPU, y compris ceux ajoutés plus tard</translation>
    </message>
    <message>
        <source>GPUs Cohort may use</source>
        <translation>GPU que Cohort peut utiliser</translation>
    </message>
    <message>
        <source>Only when idle for</source>
        <translation>Seulement après une inactivité de</translation>
    </message>
    <message>
        <source>Work only after this long without keyboard or mouse input, and stop as soon as you are back.</source>
        <translation>Travailler seulement après cette durée sans action au clavier ni à la souris, et s&apos;arrêter dès votre retour.</translation>
    </message>
    <message>
        <source>Work only when idle</source>
        <translation>Travailler seulement en cas d&apos;inactivité</translation>
    </message>
    <message>
        <source> minutes</source>
        <translation> minutes</translation>
    </message>
    <message>
        <source>Idle minutes</source>
        <translation>Minutes d&apos;inactivité</translation>
    </message>
    <message>
        <source>Pause on battery power</source>
        <translation>Mettre en pause sur batterie</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Horaires</translation>
    </message>
    <message>
        <source>Any time, e.g. mon-fri 22:00-06:00; weekend 00:00-24:00</source>
        <translation>À tout moment, par ex. mon-fri 22:00-06:00; weekend 00:00-24:00</translation>
    </message>
    <message>
        <source>Time windows when Cohort may work, separated by &apos;;&apos;. Days: mon … sun, ranges (mon-fri), daily, weekdays, weekend. A window ending before it starts runs past midnight.</source>
        <translation>Plages horaires pendant lesquelles Cohort peut travailler, séparées par « ; ». Jours (en anglais) : mon (lundi) … sun (dimanche), intervalles (mon-fri), daily (tous les jours), weekdays (en semaine), weekend (le week-end). Une plage qui se termine avant de commencer se prolonge après minuit.</translation>
    </message>
    <message>
        <source>Pause while a program runs full screen</source>
        <translation>Mettre en pause pendant qu&apos;un programme est en plein écran</translation>
    </message>
    <message>
        <source>A game, a film or a presentation in front pauses Cohort; it works again about 15 seconds after the program leaves full screen.</source>
        <translation>Un jeu, un film ou une présentation au premier plan met Cohort en pause ; il reprend environ 15 secondes après que le programme a quitté le plein écran.</translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation>Mettre en pause pendant que ces programmes tournent</translation>
    </message>
    <message>
        <source>Programs to pause for, e.g. steam; blender; Game.exe</source>
        <translation>Programmes qui mettent en pause, p. ex. steam; blender; Game.exe</translation>
    </message>
    <message>
        <source>Program names separated by &apos;;&apos;, as the task manager shows them. While one of them runs, Cohort pauses; it works again about 15 seconds after the last one ends.</source>
        <translation>Noms de programmes séparés par « ; », tels que le gestionnaire des tâches les affiche. Tant que l&apos;un d&apos;eux tourne, Cohort est en pause ; il reprend environ 15 secondes après la fin du dernier.</translation>
    </message>
    <message>
        <source>Pause while another program uses the GPU</source>
        <translation>Mettre en pause pendant qu&apos;un autre programme utilise le GPU</translation>
    </message>
    <message>
        <source>Another program computing on an NVIDIA GPU, or drawing there with 1 GiB of its memory or more (a game), pauses Cohort.</source>
        <translation>Un autre programme qui calcule sur un GPU NVIDIA, ou qui y dessine avec 1 Gio de sa mémoire ou plus (un jeu), met Cohort en pause.</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Aucune limite</translation>
    </message>
    <message>
        <source>GPU temperature limit</source>
        <translation>Limite de température du GPU</translation>
    </message>
    <message>
        <source>At this GPU temperature Cohort slows down (half, then a quarter of the time); 8 °C above it, it pauses. It speeds up again 5 °C below the limit.</source>
        <translation>À cette température du GPU, Cohort ralentit (la moitié, puis le quart du temps) ; 8 °C au-dessus, il se met en pause. Il accélère à nouveau 5 °C sous la limite.</translation>
    </message>
    <message>
        <source> W</source>
        <translation> W</translation>
    </message>
    <message>
        <source>GPU power limit</source>
        <translation>Limite de puissance des GPU</translation>
    </message>
    <message>
        <source>The most power the chosen GPUs may draw together; above it Cohort slows down.</source>
        <translation>La puissance maximale que les GPU choisis peuvent consommer ensemble ; au-delà, Cohort ralentit.</translation>
    </message>
    <message>
        <source> % of each GPU&apos;s memory</source>
        <translation> % de la mémoire de chaque GPU</translation>
    </message>
    <message>
        <source>GPU memory Cohort may use</source>
        <translation>Mémoire GPU que Cohort peut utiliser</translation>
    </message>
    <message>
        <source>Cohort keeps the rest free for your games and other programs: its batches are generated in smaller parts to fit, and a task whose model does not fit is shown greyed on the Tasks page.</source>
        <translation>Cohort laisse le reste libre pour vos jeux et autres programmes : ses lots sont générés en parties plus petites pour tenir, et une tâche dont le modèle ne tient pas est grisée sur la page Tâches.</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Use at most</source>
        <translation>Utiliser au plus</translation>
    </message>
    <message>
        <source>When to work</source>
        <translation>Quand travailler</translation>
    </message>
    <message>
        <source>Idle:</source>
        <translation>Inactivité :</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>Horaires :</translation>
    </message>
    <message>
        <source>Battery:</source>
        <translation>Batterie :</translation>
    </message>
    <message>
        <source>Other programs:</source>
        <translation>Autres programmes :</translation>
    </message>
    <message>
        <source>GPU temperature limit:</source>
        <translation>Limite de température du GPU :</translation>
    </message>
    <message>
        <source>GPU power limit:</source>
        <translation>Limite de puissance des GPU :</translation>
    </message>
    <message>
        <source>Tick at least one GPU, or use all of them. To use none, pause Cohort.</source>
        <translation>Cochez au moins un GPU, ou utilisez-les tous. Pour n&apos;en utiliser aucun, mettez Cohort en pause.</translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation>GPU %1 : %2</translation>
    </message>
    <message>
        <source>%1 (not detected now)</source>
        <translation>%1 (non détecté actuellement)</translation>
    </message>
    <message>
        <source>No GPUs detected (no NVIDIA driver answered). Cohort computes on the CPU; once GPUs are detected they are listed here.</source>
        <translation>Aucun GPU détecté (aucun pilote NVIDIA n&apos;a répondu). Cohort calcule sur le CPU ; dès que des GPU sont détectés, ils apparaissent ici.</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Memory share</source>
        <translation>Part de mémoire</translation>
    </message>
    <message>
        <source>Cohort computes on each chosen GPU, one worker per GPU; a change applies at once. A GPU&apos;s own memory share replaces the share above for that GPU.</source>
        <translation>Cohort calcule sur chaque GPU choisi, un worker par GPU ; un changement s&apos;applique aussitôt. La part de mémoire propre à un GPU remplace pour lui la part ci-dessus.</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>as above</source>
        <translation>comme ci-dessus</translation>
    </message>
    <message>
        <source>Memory share of %1</source>
        <translation>Part de mémoire de %1</translation>
    </message>
    <message>
        <source>The share of this GPU&apos;s memory Cohort may use, 10 to 100 %; &quot;as above&quot; uses the share for every GPU.</source>
        <translation>La part de la mémoire de ce GPU que Cohort peut utiliser, de 10 à 100 % ; « comme ci-dessus » utilise la part commune à tous les GPU.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsDialog</name>
    <message>
        <source>Cohort Settings</source>
        <translation>Paramètres de Cohort</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Pages des paramètres</translation>
    </message>
    <message>
        <source>Changing the hub, the node name, the data folder or the download limit restarts the engine.</source>
        <translation>Modifier le hub, le nom du nœud, le dossier de données ou la limite de téléchargement redémarre le moteur.</translation>
    </message>
    <message>
        <source>Move the data folder to</source>
        <translation>Déplacer le dossier de données vers</translation>
    </message>
    <message>
        <source>Export the node key</source>
        <translation>Exporter la clé du nœud</translation>
    </message>
    <message>
        <source>Key files (*.key);;All files (*)</source>
        <translation>Fichiers de clé (*.key);;Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsGeneralPage</name>
    <message>
        <source>General</source>
        <translation>Général</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation>Langue du système (%1)</translation>
    </message>
    <message>
        <source>Start minimized to the notification area</source>
        <translation>Démarrer réduit dans la zone de notification</translation>
    </message>
    <message>
        <source>Start Cohort when I log in</source>
        <translation>Lancer Cohort à l&apos;ouverture de ma session</translation>
    </message>
    <message>
        <source>Starting at login is not available on this system.</source>
        <translation>Le lancement à l&apos;ouverture de session n&apos;est pas disponible sur ce système.</translation>
    </message>
    <message>
        <source>Managed by the system: %1</source>
        <translation>Géré par le système : %1</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Notifications</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Désactivées</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>Erreurs uniquement</translation>
    </message>
    <message>
        <source>Errors and milestones</source>
        <translation>Erreurs et étapes importantes</translation>
    </message>
    <message>
        <source>Errors: Cohort stopped, lost its hub, ran out of disk space or had work refused.
Milestones: your first verified work, a model download finished.
At most one message of each kind every 15 minutes.</source>
        <translation>Erreurs : Cohort s&apos;est arrêté, a perdu son hub, manque d&apos;espace disque ou a vu son travail refusé.
Étapes importantes : votre premier travail vérifié, un téléchargement de modèle terminé.
Au plus un message de chaque type toutes les 15 minutes.</translation>
    </message>
    <message>
        <source>Tray icon</source>
        <translation>Icône de la zone de notification</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>Couleur</translation>
    </message>
    <message>
        <source>Monochrome, light (for dark panels)</source>
        <translation>Monochrome, clair (pour barres sombres)</translation>
    </message>
    <message>
        <source>Monochrome, dark (for light panels)</source>
        <translation>Monochrome, foncé (pour barres claires)</translation>
    </message>
    <message>
        <source>Each state keeps its own symbol in every style, so they stay apart without colour.</source>
        <translation>Chaque état garde son propre symbole dans chaque style : ils restent distincts sans couleur.</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Langue :</translation>
    </message>
    <message>
        <source>A new language applies the next time Cohort starts.</source>
        <translation>Une nouvelle langue s&apos;applique au prochain démarrage de Cohort.</translation>
    </message>
    <message>
        <source>Start:</source>
        <translation>Démarrage :</translation>
    </message>
    <message>
        <source>Notifications:</source>
        <translation>Notifications :</translation>
    </message>
    <message>
        <source>Tray icon:</source>
        <translation>Icône de la zone de notification :</translation>
    </message>
    <message>
        <source>There is no notification area right now, so the window opens at start even when this is ticked, and notifications cannot be shown.</source>
        <translation>Il n&apos;y a pas de zone de notification pour le moment : la fenêtre s&apos;ouvre donc au démarrage même si cette case est cochée, et les notifications ne peuvent pas s&apos;afficher.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsNetworkPage</name>
    <message>
        <source>Network</source>
        <translation>Réseau</translation>
    </message>
    <message>
        <source>Hub address</source>
        <translation>Adresse du hub</translation>
    </message>
    <message>
        <source>Empty: run a local network on this computer</source>
        <translation>Vide : exécuter un réseau local sur cet ordinateur</translation>
    </message>
    <message>
        <source>The address of the hub that hands out work, e.g. https://hub.example.org.
Leave it empty to try Cohort with a small network that runs on this computer.</source>
        <translation>L&apos;adresse du hub qui distribue le travail, par ex. https://hub.example.org.
Laissez-la vide pour essayer Cohort avec un petit réseau qui tourne sur cet ordinateur.</translation>
    </message>
    <message>
        <source>Hub certificate</source>
        <translation>Certificat du hub</translation>
    </message>
    <message>
        <source>Empty: trust the system&apos;s certificate authorities</source>
        <translation>Vide : faire confiance aux autorités de certification du système</translation>
    </message>
    <message>
        <source>For a hub whose https certificate no public authority signed: a PEM file with the hub&apos;s certificate (or its private authority&apos;s), from the hub&apos;s operator.</source>
        <translation>Pour un hub dont aucune autorité publique n&apos;a signé le certificat https : un fichier PEM avec le certificat du hub (ou de son autorité privée), fourni par son opérateur.</translation>
    </message>
    <message>
        <source>Hub key</source>
        <translation>Clé du hub</translation>
    </message>
    <message>
        <source>Empty: trust the key the hub presents the first time</source>
        <translation>Vide : faire confiance à la clé que le hub présente la première fois</translation>
    </message>
    <message>
        <source>The hub&apos;s public key, as its operator publishes it (44 characters). With it, this computer talks only to the real hub, even the first time it connects.</source>
        <translation>La clé publique du hub, telle que son opérateur la publie (44 caractères). Avec elle, cet ordinateur ne parle qu&apos;au vrai hub, même à la première connexion.</translation>
    </message>
    <message>
        <source> KiB/s</source>
        <translation> Kio/s</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Aucune limite</translation>
    </message>
    <message>
        <source>Download limit</source>
        <translation>Limite de téléchargement</translation>
    </message>
    <message>
        <source>The most bandwidth model downloads may use. 0: no limit.</source>
        <translation>La bande passante maximale que peuvent utiliser les téléchargements de modèles. 0 : aucune limite.</translation>
    </message>
    <message>
        <source>Upload limit</source>
        <translation>Limite d&apos;envoi</translation>
    </message>
    <message>
        <source>The most bandwidth uploads to other computers may use: DiLoCo training traffic to the other nodes of its ring. Applies at once. 0: no limit.</source>
        <translation>La bande passante maximale que peuvent utiliser les envois vers d&apos;autres ordinateurs : le trafic d&apos;entraînement DiLoCo vers les autres nœuds de son anneau. S&apos;applique immédiatement. 0 : aucune limite.</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>Proxy</translation>
    </message>
    <message>
        <source>No proxy</source>
        <translation>Aucun proxy</translation>
    </message>
    <message>
        <source>Use the system&apos;s proxy settings</source>
        <translation>Utiliser les paramètres de proxy du système</translation>
    </message>
    <message>
        <source>Manual HTTP proxy</source>
        <translation>Proxy HTTP manuel</translation>
    </message>
    <message>
        <source>Proxy address</source>
        <translation>Adresse du proxy</translation>
    </message>
    <message>
        <source>host:port, e.g. proxy.example.org:3128</source>
        <translation>hôte:port, par ex. proxy.example.org:3128</translation>
    </message>
    <message>
        <source>Hub address:</source>
        <translation>Adresse du hub :</translation>
    </message>
    <message>
        <source>Hub certificate:</source>
        <translation>Certificat du hub :</translation>
    </message>
    <message>
        <source>Hub key:</source>
        <translation>Clé du hub :</translation>
    </message>
    <message>
        <source>Download limit:</source>
        <translation>Limite de téléchargement :</translation>
    </message>
    <message>
        <source>Upload limit:</source>
        <translation>Limite d&apos;envoi :</translation>
    </message>
    <message>
        <source>Proxy:</source>
        <translation>Proxy :</translation>
    </message>
    <message>
        <source>Proxy address:</source>
        <translation>Adresse du proxy :</translation>
    </message>
    <message>
        <source>The proxy applies to new connections at once; connections to this computer (the local network) never use it.</source>
        <translation>Le proxy s&apos;applique immédiatement aux nouvelles connexions ; les connexions vers cet ordinateur (le réseau local) ne l&apos;utilisent jamais.</translation>
    </message>
</context>
<context>
    <name>cohort::SettingsStoragePage</name>
    <message>
        <source>Storage</source>
        <translation>Stockage</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Dossier de données</translation>
    </message>
    <message>
        <source>Where the node keeps its identity key, downloaded models and history. Changing it here starts over in that folder; use Move… to take the data along.</source>
        <translation>L&apos;endroit où le nœud conserve sa clé d&apos;identité, les modèles téléchargés et l&apos;historique. Le modifier ici repart de zéro dans ce dossier ; utilisez Déplacer… pour emporter les données.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>Choose another data folder</source>
        <translation>Choisir un autre dossier de données</translation>
    </message>
    <message>
        <source>Move…</source>
        <translation>Déplacer…</translation>
    </message>
    <message>
        <source>Move the data folder</source>
        <translation>Déplacer le dossier de données</translation>
    </message>
    <message>
        <source>Copy the data to another folder, check every file, switch to it, then delete the old copy.</source>
        <translation>Copier les données dans un autre dossier, vérifier chaque fichier, basculer vers ce dossier, puis supprimer l&apos;ancienne copie.</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> Gio</translation>
    </message>
    <message>
        <source>No cap</source>
        <translation>Aucune limite</translation>
    </message>
    <message>
        <source>Disk space cap</source>
        <translation>Limite d&apos;espace disque</translation>
    </message>
    <message>
        <source>The most space Cohort&apos;s data folder may use; at the cap it pauses and says so.</source>
        <translation>L&apos;espace maximal que peut occuper le dossier de données de Cohort ; à cette limite, il se met en pause et le signale.</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>Dossier de données :</translation>
    </message>
    <message>
        <source>Move… takes the node key, models and history along. Typing or browsing to another folder instead starts over there, with a new node key.</source>
        <translation>Déplacer… emporte la clé du nœud, les modèles et l&apos;historique. Saisir ou choisir un autre dossier à la place repart de zéro dans ce dossier, avec une nouvelle clé de nœud.</translation>
    </message>
    <message>
        <source>Disk space cap:</source>
        <translation>Limite d&apos;espace disque :</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>Choisir le dossier de données</translation>
    </message>
    <message>
        <source>Move Cohort&apos;s data from
%1
to
%2?

Cohort stops working while it copies the files and checks every copy, then switches to the new folder. The old files are deleted only after that succeeded.</source>
        <translation>Déplacer les données de Cohort de
%1
vers
%2 ?

Cohort arrête de travailler pendant qu&apos;il copie les fichiers et vérifie chaque copie, puis bascule vers le nouveau dossier. Les anciens fichiers ne sont supprimés qu&apos;une fois cette opération réussie.</translation>
    </message>
    <message>
        <source>Copying and checking: %1 of %2…</source>
        <translation>Copie et vérification : %1 sur %2…</translation>
    </message>
    <message>
        <source>Stopping the engine…</source>
        <translation>Arrêt du moteur…</translation>
    </message>
    <message>
        <source>Copying and checking…</source>
        <translation>Copie et vérification…</translation>
    </message>
    <message>
        <source>Moved to %1.</source>
        <translation>Déplacé vers %1.</translation>
    </message>
    <message numerus="yes">
        <source>Moved to %1. %n item(s) in the old folder were not Cohort&apos;s or could not be deleted and were left there.</source>
        <translation>
            <numerusform>Déplacé vers %1. %n élément de l&apos;ancien dossier n&apos;appartenait pas à Cohort ou n&apos;a pas pu être supprimé, et y a été laissé.</numerusform>
            <numerusform>Déplacé vers %1. %n éléments de l&apos;ancien dossier n&apos;appartenaient pas à Cohort ou n&apos;ont pas pu être supprimés, et y ont été laissés.</numerusform>
        </translation>
    </message>
    <message>
        <source>The data folder was not moved: %1</source>
        <translation>Le dossier de données n&apos;a pas été déplacé : %1</translation>
    </message>
</context>
<context>
    <name>cohort::TasksPage</name>
    <message>
        <source>Tasks offered by the hub. Pick one to lend this computer to it.</source>
        <translation>Tâches proposées par le hub. Choisissez-en une pour lui prêter cet ordinateur.</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Récompense</translation>
    </message>
    <message>
        <source>Needs</source>
        <translation>Besoins</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Rejoindre</translation>
    </message>
    <message>
        <source>Leave</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Joined</source>
        <translation>Rejointe</translation>
    </message>
    <message>
        <source>Not part of any task yet.</source>
        <translation>Ne participe encore à aucune tâche.</translation>
    </message>
    <message>
        <source>Joined: %1</source>
        <translation>Tâche rejointe : %1</translation>
    </message>
    <message>
        <source>Waiting for the hub&apos;s list of tasks…</source>
        <translation>En attente de la liste des tâches du hub…</translation>
    </message>
    <message>
        <source>Select a task to read what it does.</source>
        <translation>Sélectionnez une tâche pour voir ce qu&apos;elle fait.</translation>
    </message>
    <message>
        <source>Needs: %1. Reward: %2.</source>
        <translation>Besoins : %1. Récompense : %2.</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Cet ordinateur</translation>
    </message>
    <message>
        <source>On this computer: %1</source>
        <translation>Sur cet ordinateur : %1</translation>
    </message>
    <message>
        <source>This hub also offers %1 tasks, which this version of Cohort cannot run. A newer version of Cohort may; the other tasks work as they are.</source>
        <translation>Ce hub propose aussi des tâches %1, que cette version de Cohort ne sait pas exécuter. Une version plus récente le pourra peut-être ; les autres tâches fonctionnent normalement.</translation>
    </message>
    <message>
        <source>This computer cannot run %1: %2.</source>
        <translation>Cet ordinateur ne peut pas exécuter %1 : %2.</translation>
    </message>
    <message>
        <source>Contributors with accepted work: %1; none of this computer&apos;s is accepted yet.</source>
        <translation>Contributeurs avec du travail accepté : %1 ; rien de cet ordinateur n&apos;est encore accepté.</translation>
    </message>
    <message>
        <source>Your part: accepted batches %1 (%2 % of all), rank %3 of %4 contributors.</source>
        <translation>Votre part : %1 lots acceptés (%2 % du total), rang %3 sur %4 contributeurs.</translation>
    </message>
    <message>
        <source>The network&apos;s model on %1 held-out problems (never trained on): version %2 answers %3 % correctly, version %4 answered %5 %.</source>
        <translation>Le modèle du réseau sur %1 problèmes réservés (jamais appris) : la version %2 en résout %3 %, la version %4 en résolvait %5 %.</translation>
    </message>
    <message>
        <source>The network&apos;s model on %1 held-out sentences (never trained on): loss %2 at outer step %3, %4 at outer step %5.</source>
        <translation>Le modèle du réseau sur %1 phrases réservées (jamais utilisées pour l&apos;entraînement) : perte %2 à l&apos;étape externe %3, %4 à l&apos;étape externe %5.</translation>
    </message>
</context>
<context>
    <name>cohort::TrayIcon</name>
    <message>
        <source>Open Cohort</source>
        <translation>Ouvrir Cohort</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Mettre en pause</translation>
    </message>
    <message>
        <source>Pause after this batch</source>
        <translation>Mettre en pause après ce lot</translation>
    </message>
    <message>
        <source>Snooze</source>
        <translation>Suspendre</translation>
    </message>
    <message>
        <source>For 15 minutes</source>
        <translation>Pendant 15 minutes</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>Pendant 1 heure</translation>
    </message>
    <message>
        <source>Until tomorrow</source>
        <translation>Jusqu&apos;à demain</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Paramètres…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Cohort — %1</source>
        <translation>Cohort — %1</translation>
    </message>
    <message>
        <source> · today %1 credits</source>
        <translation> · aujourd&apos;hui %1 crédits</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message numerus="yes">
        <source>Pause now (drops %n s of work in hand)</source>
        <translation>
            <numerusform>Mettre en pause maintenant (abandonne %n s de travail en cours)</numerusform>
            <numerusform>Mettre en pause maintenant (abandonne %n s de travail en cours)</numerusform>
        </translation>
    </message>
    <message>
        <source>Pausing after this batch…</source>
        <translation>Mise en pause après ce lot…</translation>
    </message>
</context>
<context>
    <name>cohort::WelcomeDialog</name>
    <message>
        <source>Welcome to Cohort</source>
        <translation>Bienvenue dans Cohort</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Cohort lends this computer to train AI models together with other people.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;While it works, it uses your GPU (or CPU) to generate and check training data for the network you chose, and shows what it did and what it earned. It reads nothing else on this computer and sends only that work, the computer&apos;s state and its hardware summary.&lt;/p&gt;&lt;p&gt;It works only when you allow it: pause it from the tray at any time, and choose below when it may work. Every choice can be changed later in Settings.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Cohort prête cet ordinateur pour entraîner des modèles d&apos;IA avec d&apos;autres personnes.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Pendant qu&apos;il travaille, il utilise votre GPU (ou CPU) pour générer et vérifier des données d&apos;entraînement pour le réseau que vous avez choisi, et affiche ce qu&apos;il a fait et ce qu&apos;il a gagné. Il ne lit rien d&apos;autre sur cet ordinateur et n&apos;envoie que ce travail, l&apos;état de l&apos;ordinateur et le résumé de son matériel.&lt;/p&gt;&lt;p&gt;Il ne travaille que lorsque vous l&apos;y autorisez : mettez-le en pause depuis la zone de notification à tout moment, et choisissez ci-dessous quand il peut travailler. Chaque choix peut être modifié plus tard dans les Paramètres.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Start Cohort when I log in</source>
        <translation>Lancer Cohort à l&apos;ouverture de ma session</translation>
    </message>
    <message>
        <source>Work only when nobody uses this computer</source>
        <translation>Travailler seulement quand personne n&apos;utilise cet ordinateur</translation>
    </message>
    <message>
        <source>Pause on battery power</source>
        <translation>Mettre en pause sur batterie</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Aucune limite</translation>
    </message>
    <message>
        <source>Cohort slows down at this GPU temperature and pauses 8 °C above it.</source>
        <translation>Cohort ralentit à cette température du GPU et se met en pause 8 °C au-dessus.</translation>
    </message>
    <message>
        <source>GPU temperature limit:</source>
        <translation>Limite de température du GPU :</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Démarrer</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Pas maintenant</translation>
    </message>
    <message>
        <source>“Start” begins with the first of the network&apos;s tasks that this computer can run. Choose another on the Tasks page at any time.</source>
        <translation>« Démarrer » commence par la première tâche du réseau que cet ordinateur peut exécuter. Vous pouvez en choisir une autre à tout moment dans la page Tâches.</translation>
    </message>
</context>
<context>
    <name>cohort::display</name>
    <message>
        <source>measuring…</source>
        <translation>mesure en cours…</translation>
    </message>
    <message>
        <source>%1 of 1 core</source>
        <translation>%1 d&apos;un cœur</translation>
    </message>
    <message>
        <source>%1 of %2 cores</source>
        <translation>%1 de %2 cœurs</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>inconnue</translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation>%1 sur %2 (%3 %)</translation>
    </message>
    <message>
        <source>never</source>
        <translation>jamais</translation>
    </message>
    <message>
        <source>Local network (embedded)</source>
        <translation>Réseau local (intégré)</translation>
    </message>
    <message>
        <source>Local network (embedded) at %1</source>
        <translation>Réseau local (intégré) à %1</translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation>pas encore connecté</translation>
    </message>
    <message>
        <source>RL rollouts</source>
        <translation>Rollouts RL</translation>
    </message>
    <message>
        <source>DiLoCo training</source>
        <translation>Entraînement DiLoCo</translation>
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
        <translation>crédits</translation>
    </message>
    <message>
        <source>%1 %2 / verified step</source>
        <translation>%1 %2 / étape vérifiée</translation>
    </message>
    <message>
        <source>%1 %2 / 1k verified tokens</source>
        <translation>%1 %2 / 1 000 jetons vérifiés</translation>
    </message>
    <message>
        <source>1+ CPU core</source>
        <translation>1+ cœur CPU</translation>
    </message>
    <message>
        <source>%1+ CPU cores</source>
        <translation>%1+ cœurs CPU</translation>
    </message>
    <message>
        <source>%1 RAM</source>
        <translation>%1 de RAM</translation>
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
        <translation>aucun GPU requis</translation>
    </message>
    <message>
        <source>%1 disk</source>
        <translation>%1 de disque</translation>
    </message>
    <message>
        <source>1+ core</source>
        <translation>1+ cœur</translation>
    </message>
    <message>
        <source>%1+ cores</source>
        <translation>%1+ cœurs</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
</context>
</TS>
